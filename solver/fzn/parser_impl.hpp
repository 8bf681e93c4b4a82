// The FlatZinc parser's state (solver/fzn/parser.hpp): symbols, the values it parses, and the Parser
// class, whose items and values are parsed in parser.cpp and annotations in parser_annotations.cpp.
// Internal to the parser.
#pragma once

#include "solver/fzn/lexer.hpp"
#include "solver/fzn/parser.hpp"

namespace kcp::fzn::detail {

enum class SymKind : std::uint8_t {
  int_param,
  bool_param,
  float_param,
  set_param,
  variable,
  int_array,  ///< parameters and variables alike: both are arrays of terms
  bool_array,
  float_array,
  set_array,
};

struct Symbol {
  SymKind kind = SymKind::int_param;
  std::int64_t value = 0;  ///< int/bool parameter: the value; variable: its index
  std::int64_t lo = 1;     ///< arrays: the first index
  std::size_t data = 0;    ///< float/set parameter, arrays: index into the parser's side tables
};

inline bool is_array(SymKind k) {
  return k == SymKind::int_array || k == SymKind::bool_array || k == SymKind::float_array ||
         k == SymKind::set_array;
}

/// Identifiers to symbols. The slots are 8 bytes (a hash tag and an entry index) probed linearly,
/// so that the table of a million names stays small enough for the cache; the entries sit in
/// declaration order, which keeps the references of neighbouring constraints close together. The
/// node-based std::unordered_map spent most of the parse of large instances in cache misses.
class SymbolTable {
 public:
  SymbolTable() : slots_(1024) {}

  /// The symbol named, or null. The pointer is valid until the next insert.
  const Symbol* find(std::string_view name) const {
    std::uint64_t h = hash(name);
    auto tag = static_cast<std::uint32_t>(h >> 32);
    for (std::size_t i = h & mask(); slots_[i].index != kEmpty; i = (i + 1) & mask()) {
      const Slot& s = slots_[i];
      if (s.tag == tag) {
        const Entry& e = entries_[s.index];
        if (name == std::string_view(e.name, e.size)) return &e.symbol;
      }
    }
    return nullptr;
  }

  std::size_t size() const { return entries_.size(); }
  static constexpr std::size_t max_size() { return kEmpty - 1; }

  /// False when the name is already declared. `name` must outlive the table.
  bool insert(std::string_view name, const Symbol& symbol) {
    if (2 * (entries_.size() + 1) > slots_.size()) grow();
    std::uint64_t h = hash(name);
    auto tag = static_cast<std::uint32_t>(h >> 32);
    std::size_t i = h & mask();
    for (; slots_[i].index != kEmpty; i = (i + 1) & mask()) {
      const Slot& s = slots_[i];
      if (s.tag == tag) {
        const Entry& e = entries_[s.index];
        if (name == std::string_view(e.name, e.size)) return false;
      }
    }
    slots_[i] = Slot{tag, static_cast<std::uint32_t>(entries_.size())};
    entries_.push_back(Entry{name.data(), name.size(), h, symbol});
    return true;
  }

 private:
  static constexpr std::uint32_t kEmpty = 0xFFFFFFFFu;

  struct Slot {
    std::uint32_t tag = 0;  ///< the hash's high half: most mismatches never touch the entry
    std::uint32_t index = kEmpty;
  };

  struct Entry {
    const char* name;
    std::size_t size;
    std::uint64_t hash;
    Symbol symbol;
  };

  std::size_t mask() const { return slots_.size() - 1; }

  // Eight bytes at a time with a multiply-xorshift mix: FlatZinc names such as X_INTRODUCED_123_
  // share long prefixes, so every byte must reach the low bits used for the slot index.
  static std::uint64_t hash(std::string_view s) {
    constexpr std::uint64_t k = 0x9E3779B97F4A7C15ull;
    std::uint64_t h = k ^ s.size();
    const char* p = s.data();
    std::size_t n = s.size();
    for (; n >= 8; p += 8, n -= 8) {
      std::uint64_t w;
      std::memcpy(&w, p, 8);
      h = (h ^ w) * k;
      h ^= h >> 32;
    }
    if (n > 0) {
      std::uint64_t w = 0;
      std::memcpy(&w, p, n);
      h = (h ^ w) * k;
    }
    h ^= h >> 29;
    h *= 0xBF58476D1CE4E5B9ull;
    h ^= h >> 32;
    return h;
  }

  void grow() {
    std::vector<Slot> bigger(slots_.size() * 2);
    slots_.swap(bigger);
    for (std::size_t index = 0; index < entries_.size(); ++index) {
      std::uint64_t h = entries_[index].hash;
      std::size_t i = h & mask();
      while (slots_[i].index != kEmpty) i = (i + 1) & mask();
      slots_[i] = Slot{static_cast<std::uint32_t>(h >> 32), static_cast<std::uint32_t>(index)};
    }
  }

  std::vector<Slot> slots_;
  std::vector<Entry> entries_;
};

/// A scalar-level expression: what may stand alone or inside an array literal.
struct Elem {
  enum class Kind { term, set, float_, array };
  Kind kind = Kind::term;
  Term term;
  IntSet set;
  std::string_view text;          ///< float_: the literal
  const Symbol* array = nullptr;  ///< array: the symbol named
  Location loc;
};

struct TypeInfo {
  enum class Base { int_, bool_, float_, set };
  Base base = Base::int_;
  std::optional<IntSet> domain;
};

/// What a declaration's annotations mean for the model.
struct DeclAnnotations {
  bool output_var = false;
  bool introduced = false;
  bool defined = false;
  bool output_array = false;
  std::vector<std::pair<std::int64_t, std::int64_t>> dims;
  Location output_array_loc;
};

inline Annotation term_annotation(Term t) {
  Annotation a;
  a.kind = Annotation::Kind::term;
  a.term = t;
  return a;
}

inline Annotation string_annotation(std::string text) {
  Annotation a;
  a.kind = Annotation::Kind::string;
  a.text = std::move(text);
  return a;
}

inline Annotation range_annotation(std::int64_t lo, std::int64_t hi) {
  Annotation a;
  a.kind = Annotation::Kind::call;
  a.name = "..";
  a.args.push_back(term_annotation(Term::constant(lo)));
  a.args.push_back(term_annotation(Term::constant(hi)));
  return a;
}

inline Annotation set_annotation(const IntSet& s) {
  Annotation a;
  a.kind = Annotation::Kind::call;
  a.name = "{}";
  for (const auto& r : s.ranges) a.args.push_back(range_annotation(r.first, r.second));
  return a;
}

class Parser {
 public:
  Parser(const std::string& text, std::string file) : file_(std::move(file)), lex_(text, file_) {
    model_.file = file_;
    reserve(text);
    lex_.next(tok_);
  }

  Model parse();

 private:
  // MiniZinc writes one item per line. Counting the lines that start like variables and
  // constraints is one fast pass, and sizing the model's vectors up front saves copying them
  // (tens of megabytes on large instances) each time they would have doubled.
  void reserve(const std::string& text);

  // --- token helpers -------------------------------------------------------------------------

  void advance() {
    prev_end_ = tok_.end;
    lex_.next(tok_);
  }
  bool at(Tok k) const { return tok_.kind == k; }
  bool at_keyword(std::string_view kw) const { return tok_.kind == Tok::ident && tok_.text == kw; }
  bool accept(Tok k) {
    if (tok_.kind != k) return false;
    advance();
    return true;
  }
  void expect(Tok k, const std::string& message) {
    if (!accept(k)) fail(tok_.loc, message);
  }
  // A missing ';' is reported just after the item's last token, where it belongs.
  void expect_semicolon(const char* message) {
    if (!accept(Tok::semicolon)) fail(prev_end_, message);
  }
  void expect_keyword(std::string_view kw, const char* message) {
    if (!at_keyword(kw)) fail(tok_.loc, message);
    advance();
  }
  Token expect_name(const char* message) {
    if (tok_.kind != Tok::ident || is_keyword(tok_.text)) fail(tok_.loc, message);
    Token t = tok_;
    advance();
    return t;
  }
  [[noreturn]] void fail(Location loc, const std::string& message) const {
    throw ParseError(file_, loc, message);
  }
  static std::string quoted(std::string_view name) { return "'" + std::string(name) + "'"; }

  // --- symbols -------------------------------------------------------------------------------

  const Symbol* lookup(std::string_view name) const { return symbols_.find(name); }

  void declare(const Token& name, const Symbol& s) {
    if (symbols_.size() >= SymbolTable::max_size()) fail(name.loc, "too many identifiers");
    if (!symbols_.insert(name.text, s)) {
      fail(name.loc, "identifier " + quoted(name.text) + " is already declared");
    }
  }

  int add_variable(Variable v);

  std::size_t array_size(const Symbol& s) const;

  // --- expressions ---------------------------------------------------------------------------

  std::int64_t parse_int_value(const char* message);

  // An integer constant was read; it may start a range `lo..hi`.
  Elem finish_int(Elem e, std::int64_t v);

  Elem parse_element(const char* message);

  Elem parse_identifier_element();

  // `name[index]`, 1-based into the declared index set (any lower bound works).
  Elem parse_access(const Token& id, const Symbol& s);

  // `{1, 3, 5}`; a set with a float element comes back as Kind::float_ for the caller to reject.
  Elem parse_set_literal();

  // An element of an array literal that must be an int or bool term.
  Term array_term(const Elem& e, const char* float_message);

  Arg parse_arg();

  // A scalar int/bool value: a variable's alias or the objective.
  Term scalar_term(const Elem& e, const char* float_message, const char* other_message);

  // --- annotations ---------------------------------------------------------------------------

  std::vector<Annotation> parse_annotations() {
    std::vector<Annotation> anns;
    while (accept(Tok::double_colon)) anns.push_back(parse_ann_expr(1));
    return anns;
  }

  Annotation parse_ann_expr(int depth);

  Annotation parse_ann_identifier(const Token& id, int depth);

  static Annotation elem_annotation(const Elem& e);

  // Annotations of a declaration: the common bare flags are recognised without building a tree.
  DeclAnnotations parse_decl_annotations();

  std::vector<std::pair<std::int64_t, std::int64_t>> output_dims(const Annotation& a, Location loc);

  void add_array_output(const Token& name, const DeclAnnotations& anns, VarType type, const std::vector<Term>& elements);

  void add_scalar_output(std::string_view name, VarType type, Term t);

  // --- items ---------------------------------------------------------------------------------

  TypeInfo parse_type();

  void check_supported(const TypeInfo& t, Location loc, const char* what, std::string_view name);

  void parse_var_decl();

  void parse_par_decl();

  void parse_array_decl();

  void parse_constraint();

  void parse_solve();

  // Predicate declarations only tell a FlatZinc consumer which globals the solver library
  // declared; kcp needs nothing from them, so their parameter lists are skipped token by token.
  void skip_predicate();

  std::string file_;
  Lexer lex_;
  Token tok_;
  Location prev_end_{1, 1};
  Model model_;
  bool solve_seen_ = false;
  // Keys point into the source text, which outlives the parser.
  SymbolTable symbols_;
  std::vector<std::vector<Term>> arrays_;
  std::vector<IntSet> sets_;
  std::vector<std::string_view> float_texts_;  ///< float parameters' literals, for annotations
  std::vector<std::vector<std::string_view>> float_arrays_;
  std::vector<std::vector<IntSet>> set_arrays_;
  // Reused buffers, so that a constraint's vectors are allocated once at their final size
  // instead of growing element by element (a measurable share of the parse of large files).
  std::vector<Arg> arg_scratch_;
  std::vector<Term> term_scratch_;
};

}  // namespace kcp::fzn::detail
