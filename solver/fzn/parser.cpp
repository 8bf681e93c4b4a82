#include "solver/fzn/parser.hpp"

#include <cerrno>
#include <climits>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <iterator>
#include <limits>
#include <optional>
#include <string>
#include <string_view>
#include <system_error>
#include <utility>
#include <vector>

namespace kcp::fzn {

namespace {

// Annotations are the only recursive construct; a bound keeps adversarial input off the stack's
// end.
constexpr int kMaxNesting = 256;

// Character classes, looked up per byte in the lexer's inner loops.
enum : std::uint8_t { kIdentStart = 1, kIdentChar = 2, kDigit = 4 };

struct CharTable {
  std::uint8_t cls[256] = {};
  constexpr CharTable() {
    for (int c = 'a'; c <= 'z'; ++c) cls[c] = kIdentStart | kIdentChar;
    for (int c = 'A'; c <= 'Z'; ++c) cls[c] = kIdentStart | kIdentChar;
    cls[static_cast<int>('_')] = kIdentStart | kIdentChar;
    for (int c = '0'; c <= '9'; ++c) cls[c] = kIdentChar | kDigit;
  }
};
constexpr CharTable kChars;

inline bool has_class(char c, std::uint8_t cls) {
  return (kChars.cls[static_cast<unsigned char>(c)] & cls) != 0;
}
inline bool is_digit(char c) { return has_class(c, kDigit); }

int digit_value(char c, int base) {
  int d;
  if (c >= '0' && c <= '9') {
    d = c - '0';
  } else if (c >= 'a' && c <= 'f') {
    d = c - 'a' + 10;
  } else if (c >= 'A' && c <= 'F') {
    d = c - 'A' + 10;
  } else {
    return -1;
  }
  return d < base ? d : -1;
}

std::string describe_char(char c) {
  auto u = static_cast<unsigned char>(c);
  if (u >= 0x20 && u < 0x7f) return std::string("'") + c + "'";
  static const char* hex = "0123456789abcdef";
  return std::string("'\\x") + hex[u >> 4] + hex[u & 15] + "'";
}

// The FlatZinc words that cannot name a variable or parameter.
bool is_keyword(std::string_view s) {
  static const std::string_view words[] = {
      "array", "bool",      "constraint", "false", "float", "int",  "maximize", "minimize",
      "of",    "predicate", "satisfy",    "set",   "solve", "true", "var"};
  for (std::string_view w : words) {
    if (s == w) return true;
  }
  return false;
}

std::string unescape(std::string_view raw) {
  std::string out;
  out.reserve(raw.size());
  for (std::size_t i = 0; i < raw.size(); ++i) {
    char c = raw[i];
    if (c == '\\' && i + 1 < raw.size()) {
      char e = raw[++i];
      switch (e) {
        case 'n':
          out += '\n';
          break;
        case 't':
          out += '\t';
          break;
        default:
          out += e;
          break;  // \" and \\ stand for themselves
      }
    } else {
      out += c;
    }
  }
  return out;
}

// The number of elements of lo..hi, saturating at UINT64_MAX (only 2^64 itself saturates).
std::uint64_t range_size(std::int64_t lo, std::int64_t hi) {
  if (hi < lo) return 0;
  std::uint64_t diff = static_cast<std::uint64_t>(hi) - static_cast<std::uint64_t>(lo);
  return diff == std::numeric_limits<std::uint64_t>::max() ? diff : diff + 1;
}

std::string range_text(std::int64_t lo, std::int64_t hi) {
  return std::to_string(lo) + ".." + std::to_string(hi);
}

// ---------------------------------------------------------------------------------------------
// Lexer

enum class Tok : std::uint8_t {
  end,
  ident,
  int_lit,
  float_lit,
  string_lit,
  semicolon,
  colon,
  double_colon,
  comma,
  dotdot,
  lbracket,
  rbracket,
  lparen,
  rparen,
  lbrace,
  rbrace,
  equals,
};

struct Token {
  Tok kind = Tok::end;
  Location loc;
  Location end;            ///< just past the token: where a missing ';' belongs
  std::string_view text;   ///< the source text (a string literal's contents without quotes)
  std::int64_t value = 0;  ///< int_lit
};

class Lexer {
 public:
  // `text` must be a std::string: its terminating NUL is the sentinel that stops the inner loops,
  // so they need no bounds checks; p_ == end_ tells the real end from an embedded NUL byte.
  Lexer(const std::string& text, const std::string& file)
      : p_(text.data()), end_(text.data() + text.size()), line_start_(text.data()), file_(file) {}

  void next(Token& t) {
    skip_space();
    t.loc = here();
    t.value = 0;
    const char* start = p_;
    char c = *p_;
    if (p_ == end_) {
      t.kind = Tok::end;
      t.text = {};
      t.end = t.loc;
      return;
    }
    if (has_class(c, kIdentStart)) {
      ++p_;
      while (has_class(*p_, kIdentChar)) ++p_;
      t.kind = Tok::ident;
    } else if (is_digit(c) || (c == '-' && is_digit(p_[1]))) {
      lex_number(t);
    } else if (c == '"') {
      lex_string(t);
      t.end = here();
      return;
    } else {
      ++p_;
      switch (c) {
        case ';':
          t.kind = Tok::semicolon;
          break;
        case ',':
          t.kind = Tok::comma;
          break;
        case '[':
          t.kind = Tok::lbracket;
          break;
        case ']':
          t.kind = Tok::rbracket;
          break;
        case '(':
          t.kind = Tok::lparen;
          break;
        case ')':
          t.kind = Tok::rparen;
          break;
        case '{':
          t.kind = Tok::lbrace;
          break;
        case '}':
          t.kind = Tok::rbrace;
          break;
        case '=':
          t.kind = Tok::equals;
          break;
        case ':':
          if (*p_ == ':') {
            ++p_;
            t.kind = Tok::double_colon;
          } else {
            t.kind = Tok::colon;
          }
          break;
        case '.':
          if (*p_ == '.') {
            ++p_;
            t.kind = Tok::dotdot;
            break;
          }
          fail(t.loc, "unexpected character '.'");
        default:
          fail(t.loc, "unexpected character " + describe_char(c));
      }
    }
    t.text = std::string_view(start, static_cast<std::size_t>(p_ - start));
    t.end = here();
  }

 private:
  Location here() const {
    std::ptrdiff_t col = p_ - line_start_ + 1;
    return {line_, col > INT_MAX ? INT_MAX : static_cast<int>(col)};
  }

  [[noreturn]] void fail(Location loc, const std::string& message) const {
    throw ParseError(file_, loc, message);
  }

  void new_line() {
    if (line_ < INT_MAX) ++line_;
    line_start_ = p_;
  }

  void skip_space() {
    for (;;) {
      char c = *p_;
      if (c == ' ' || c == '\t' || c == '\r') {
        ++p_;
      } else if (c == '\n') {
        ++p_;
        new_line();
      } else if (c == '%') {
        while (p_ != end_ && *p_ != '\n') ++p_;
      } else if (c == '/' && p_[1] == '*') {
        Location start = here();
        p_ += 2;
        for (;;) {
          if (p_ == end_) fail(start, "unterminated comment");
          if (*p_ == '*' && p_[1] == '/') {
            p_ += 2;
            break;
          }
          if (*p_++ == '\n') new_line();
        }
      } else {
        return;
      }
    }
  }

  void lex_number(Token& t) {
    const char* start = p_;
    bool negative = *p_ == '-';
    if (negative) ++p_;
    int base = 10;
    if (p_[0] == '0' && p_[1] == 'x' && digit_value(p_[2], 16) >= 0) {
      base = 16;
      p_ += 2;
    } else if (p_[0] == '0' && p_[1] == 'o' && digit_value(p_[2], 8) >= 0) {
      base = 8;
      p_ += 2;
    }
    const std::uint64_t limit = negative ? std::uint64_t{1} << 63 : (std::uint64_t{1} << 63) - 1;
    std::uint64_t magnitude = 0;
    bool overflow = false;
    for (int d; (d = digit_value(*p_, base)) >= 0; ++p_) {
      auto ud = static_cast<std::uint64_t>(d);
      if (magnitude > (limit - ud) / static_cast<std::uint64_t>(base)) {
        overflow = true;
      } else {
        magnitude = magnitude * static_cast<std::uint64_t>(base) + ud;
      }
    }
    if (base == 10) {
      bool is_float = false;
      // "1..5" is a range, so a '.' starts a fraction only when a digit follows it.
      if (*p_ == '.' && is_digit(p_[1])) {
        is_float = true;
        ++p_;
        while (is_digit(*p_)) ++p_;
      }
      if ((*p_ == 'e' || *p_ == 'E') &&
          (is_digit(p_[1]) || ((p_[1] == '+' || p_[1] == '-') && is_digit(p_[2])))) {
        is_float = true;
        p_ += 2;
        while (is_digit(*p_)) ++p_;
      }
      if (is_float) {
        t.kind = Tok::float_lit;
        return;
      }
    }
    if (overflow) {
      fail(t.loc, "integer literal out of range: " +
                      std::string(start, static_cast<std::size_t>(p_ - start)));
    }
    t.kind = Tok::int_lit;
    if (!negative) {
      t.value = static_cast<std::int64_t>(magnitude);
    } else if (magnitude == std::uint64_t{1} << 63) {
      t.value = std::numeric_limits<std::int64_t>::min();
    } else {
      t.value = -static_cast<std::int64_t>(magnitude);
    }
  }

  void lex_string(Token& t) {
    const char* start = ++p_;
    for (;;) {
      if (p_ == end_ || *p_ == '\n') fail(t.loc, "unterminated string literal");
      if (*p_ == '"') break;
      if (*p_ == '\\' && p_ + 1 != end_ && p_[1] != '\n') ++p_;
      ++p_;
    }
    t.kind = Tok::string_lit;
    t.text = std::string_view(start, static_cast<std::size_t>(p_ - start));
    ++p_;
  }

  const char* p_;
  const char* end_;
  const char* line_start_;
  int line_ = 1;
  const std::string& file_;
};

// ---------------------------------------------------------------------------------------------
// Parser

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

bool is_array(SymKind k) {
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

Annotation term_annotation(Term t) {
  Annotation a;
  a.kind = Annotation::Kind::term;
  a.term = t;
  return a;
}

Annotation string_annotation(std::string text) {
  Annotation a;
  a.kind = Annotation::Kind::string;
  a.text = std::move(text);
  return a;
}

Annotation range_annotation(std::int64_t lo, std::int64_t hi) {
  Annotation a;
  a.kind = Annotation::Kind::call;
  a.name = "..";
  a.args.push_back(term_annotation(Term::constant(lo)));
  a.args.push_back(term_annotation(Term::constant(hi)));
  return a;
}

Annotation set_annotation(const IntSet& s) {
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

  Model parse() {
    while (tok_.kind != Tok::end) {
      if (solve_seen_) fail(tok_.loc, "expected end of file after solve item");
      std::string_view kw = tok_.kind == Tok::ident ? tok_.text : std::string_view();
      if (kw == "constraint") {
        parse_constraint();
      } else if (kw == "var") {
        parse_var_decl();
      } else if (kw == "array") {
        parse_array_decl();
      } else if (kw == "int" || kw == "bool" || kw == "float" || kw == "set") {
        parse_par_decl();
      } else if (kw == "predicate") {
        skip_predicate();
      } else if (kw == "solve") {
        parse_solve();
      } else {
        fail(tok_.loc, "expected an item (predicate, parameter, variable, constraint or solve)");
      }
    }
    if (!solve_seen_) fail(tok_.loc, "missing solve item");
    return std::move(model_);
  }

 private:
  // MiniZinc writes one item per line. Counting the lines that start like variables and
  // constraints is one fast pass, and sizing the model's vectors up front saves copying them
  // (tens of megabytes on large instances) each time they would have doubled.
  void reserve(const std::string& text) {
    std::size_t vars = 0;
    std::size_t constraints = 0;
    const char* end = text.data() + text.size();
    for (const char* p = text.data(); p < end;) {
      if (*p == 'v') {
        ++vars;
      } else if (*p == 'c') {
        ++constraints;
      }
      const void* nl = std::memchr(p, '\n', static_cast<std::size_t>(end - p));
      if (!nl) break;
      p = static_cast<const char*>(nl) + 1;
    }
    model_.variables.reserve(vars);
    model_.constraints.reserve(constraints);
  }

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

  int add_variable(Variable v) {
    if (model_.variables.size() >= static_cast<std::size_t>(INT_MAX)) {
      fail(v.loc, "too many variables");
    }
    model_.variables.push_back(std::move(v));
    return static_cast<int>(model_.variables.size() - 1);
  }

  std::size_t array_size(const Symbol& s) const {
    switch (s.kind) {
      case SymKind::int_array:
      case SymKind::bool_array:
        return arrays_[s.data].size();
      case SymKind::float_array:
        return float_arrays_[s.data].size();
      case SymKind::set_array:
        return set_arrays_[s.data].size();
      default:
        return 0;
    }
  }

  // --- expressions ---------------------------------------------------------------------------

  std::int64_t parse_int_value(const char* message) {
    if (at(Tok::int_lit)) {
      std::int64_t v = tok_.value;
      advance();
      return v;
    }
    if (at(Tok::ident)) {
      const Symbol* s = lookup(tok_.text);
      if (s && (s->kind == SymKind::int_param || s->kind == SymKind::bool_param)) {
        advance();
        return s->value;
      }
      if (!s && !is_keyword(tok_.text)) fail(tok_.loc, "undefined identifier " + quoted(tok_.text));
    }
    fail(tok_.loc, message);
  }

  // An integer constant was read; it may start a range `lo..hi`.
  Elem finish_int(Elem e, std::int64_t v) {
    if (accept(Tok::dotdot)) {
      std::int64_t hi = parse_int_value("expected an integer after '..'");
      e.kind = Elem::Kind::set;
      e.set = IntSet::range(v, hi);
    } else {
      e.kind = Elem::Kind::term;
      e.term = Term::constant(v);
    }
    return e;
  }

  Elem parse_element(const char* message) {
    Elem e;
    e.loc = tok_.loc;
    switch (tok_.kind) {
      case Tok::int_lit: {
        std::int64_t v = tok_.value;
        advance();
        return finish_int(std::move(e), v);
      }
      case Tok::float_lit:
        e.kind = Elem::Kind::float_;
        e.text = tok_.text;
        advance();
        if (accept(Tok::dotdot)) {
          if (!at(Tok::float_lit) && !at(Tok::int_lit))
            fail(tok_.loc, "expected a number after '..'");
          advance();
        }
        return e;
      case Tok::lbrace:
        return parse_set_literal();
      case Tok::ident:
        return parse_identifier_element();
      default:
        fail(e.loc, message);
    }
  }

  Elem parse_identifier_element() {
    Token id = tok_;
    advance();
    Elem e;
    e.loc = id.loc;
    if (id.text == "true" || id.text == "false") {
      e.term = Term::constant(id.text == "true" ? 1 : 0);
      return e;
    }
    const Symbol* s = lookup(id.text);
    if (!s) fail(id.loc, "undefined identifier " + quoted(id.text));
    if (at(Tok::lbracket)) return parse_access(id, *s);
    switch (s->kind) {
      case SymKind::int_param:
      case SymKind::bool_param:
        return finish_int(std::move(e), s->value);
      case SymKind::float_param:
        e.kind = Elem::Kind::float_;
        e.text = float_texts_[s->data];
        return e;
      case SymKind::set_param:
        e.kind = Elem::Kind::set;
        e.set = sets_[s->data];
        return e;
      case SymKind::variable:
        e.term = Term::variable(static_cast<int>(s->value));
        return e;
      default:
        e.kind = Elem::Kind::array;
        e.array = s;
        return e;
    }
  }

  // `name[index]`, 1-based into the declared index set (any lower bound works).
  Elem parse_access(const Token& id, const Symbol& s) {
    advance();  // '['
    Location index_loc = tok_.loc;
    std::int64_t index = parse_int_value("expected an integer array index");
    expect(Tok::rbracket, "expected ']' after array index");
    if (!is_array(s.kind)) fail(id.loc, quoted(id.text) + " is not an array");
    std::size_t n = array_size(s);
    std::uint64_t offset = static_cast<std::uint64_t>(index) - static_cast<std::uint64_t>(s.lo);
    if (index < s.lo || offset >= n) {
      std::string bounds =
          n == 0 ? "empty" : range_text(s.lo, s.lo + static_cast<std::int64_t>(n - 1));
      fail(index_loc, "index " + std::to_string(index) + " is out of range for array " +
                          quoted(id.text) + " (" + bounds + ")");
    }
    Elem e;
    e.loc = id.loc;
    switch (s.kind) {
      case SymKind::float_array:
        e.kind = Elem::Kind::float_;
        e.text = float_arrays_[s.data][offset];
        break;
      case SymKind::set_array:
        e.kind = Elem::Kind::set;
        e.set = set_arrays_[s.data][offset];
        break;
      default:
        e.term = arrays_[s.data][offset];
        break;
    }
    return e;
  }

  // `{1, 3, 5}`; a set with a float element comes back as Kind::float_ for the caller to reject.
  Elem parse_set_literal() {
    Elem e;
    e.loc = tok_.loc;
    e.kind = Elem::Kind::set;
    advance();  // '{'
    std::vector<std::pair<std::int64_t, std::int64_t>> ranges;
    if (!accept(Tok::rbrace)) {
      for (;;) {
        if (at(Tok::float_lit)) {
          e.kind = Elem::Kind::float_;
          e.text = tok_.text;
          advance();
        } else {
          std::int64_t v = parse_int_value("expected an integer in set literal");
          ranges.emplace_back(v, v);
        }
        if (accept(Tok::comma)) continue;
        expect(Tok::rbrace, "expected ',' or '}' in set literal");
        break;
      }
    }
    if (e.kind == Elem::Kind::set) e.set = IntSet::from_ranges(std::move(ranges));
    return e;
  }

  // An element of an array literal that must be an int or bool term.
  Term array_term(const Elem& e, const char* float_message) {
    switch (e.kind) {
      case Elem::Kind::term:
        return e.term;
      case Elem::Kind::float_:
        fail(e.loc, float_message);
      case Elem::Kind::set:
        fail(e.loc, "arrays of sets are not supported here");
      case Elem::Kind::array:
        break;
    }
    fail(e.loc, "an array cannot be an element of an array");
  }

  Arg parse_arg() {
    Arg a;
    if (at(Tok::lbracket)) {
      advance();
      a.kind = Arg::Kind::array;
      if (accept(Tok::rbracket)) return a;
      term_scratch_.clear();
      for (;;) {
        Elem e = parse_element("expected an array element");
        term_scratch_.push_back(array_term(e, "float arguments are not supported"));
        if (accept(Tok::comma)) continue;
        expect(Tok::rbracket, "expected ',' or ']' in array literal");
        a.array.assign(term_scratch_.begin(), term_scratch_.end());
        return a;
      }
    }
    Elem e = parse_element("expected a constraint argument");
    switch (e.kind) {
      case Elem::Kind::term:
        a.kind = Arg::Kind::scalar;
        a.scalar = e.term;
        return a;
      case Elem::Kind::set:
        a.kind = Arg::Kind::set;
        a.set = std::move(e.set);
        return a;
      case Elem::Kind::float_:
        fail(e.loc, "float arguments are not supported");
      case Elem::Kind::array:
        break;
    }
    switch (e.array->kind) {
      case SymKind::float_array:
        fail(e.loc, "float arguments are not supported");
      case SymKind::set_array:
        fail(e.loc, "arrays of sets are not supported as arguments");
      default:
        break;
    }
    a.kind = Arg::Kind::array;
    a.array = arrays_[e.array->data];
    return a;
  }

  // A scalar int/bool value: a variable's alias or the objective.
  Term scalar_term(const Elem& e, const char* float_message, const char* other_message) {
    switch (e.kind) {
      case Elem::Kind::term:
        return e.term;
      case Elem::Kind::float_:
        fail(e.loc, float_message);
      default:
        break;
    }
    fail(e.loc, other_message);
  }

  // --- annotations ---------------------------------------------------------------------------

  std::vector<Annotation> parse_annotations() {
    std::vector<Annotation> anns;
    while (accept(Tok::double_colon)) anns.push_back(parse_ann_expr(1));
    return anns;
  }

  Annotation parse_ann_expr(int depth) {
    if (depth > kMaxNesting) {
      fail(tok_.loc, "annotation nested more than " + std::to_string(kMaxNesting) + " levels deep");
    }
    Location loc = tok_.loc;
    switch (tok_.kind) {
      case Tok::ident: {
        Token id = tok_;
        advance();
        return parse_ann_identifier(id, depth);
      }
      case Tok::int_lit: {
        std::int64_t v = tok_.value;
        advance();
        if (accept(Tok::dotdot)) {
          return range_annotation(v, parse_int_value("expected an integer after '..'"));
        }
        return term_annotation(Term::constant(v));
      }
      case Tok::float_lit: {
        std::string text(tok_.text);
        advance();
        if (accept(Tok::dotdot)) {
          if (!at(Tok::float_lit) && !at(Tok::int_lit))
            fail(tok_.loc, "expected a number after '..'");
          text += "..";
          text += tok_.text;
          advance();
        }
        return string_annotation(std::move(text));
      }
      case Tok::string_lit: {
        Annotation a = string_annotation(unescape(tok_.text));
        advance();
        return a;
      }
      case Tok::lbracket: {
        advance();
        Annotation a;
        a.kind = Annotation::Kind::array;
        if (accept(Tok::rbracket)) return a;
        for (;;) {
          a.args.push_back(parse_ann_expr(depth + 1));
          if (accept(Tok::comma)) continue;
          expect(Tok::rbracket, "expected ',' or ']' in annotation");
          return a;
        }
      }
      case Tok::lbrace: {
        Elem e = parse_set_literal();
        if (e.kind == Elem::Kind::float_) fail(e.loc, "float sets are not supported");
        return set_annotation(e.set);
      }
      default:
        fail(loc, "expected an annotation");
    }
  }

  Annotation parse_ann_identifier(const Token& id, int depth) {
    if (accept(Tok::lparen)) {
      Annotation a;
      a.kind = Annotation::Kind::call;
      a.name = std::string(id.text);
      if (accept(Tok::rparen)) return a;
      for (;;) {
        a.args.push_back(parse_ann_expr(depth + 1));
        if (accept(Tok::comma)) continue;
        expect(Tok::rparen, "expected ',' or ')' in annotation");
        return a;
      }
    }
    if (id.text == "true" || id.text == "false") {
      return term_annotation(Term::constant(id.text == "true" ? 1 : 0));
    }
    const Symbol* s = lookup(id.text);
    if (!s) {
      if (at(Tok::lbracket)) fail(id.loc, "undefined identifier " + quoted(id.text));
      Annotation a;  // an annotation atom such as first_fail or complete
      a.kind = Annotation::Kind::call;
      a.name = std::string(id.text);
      return a;
    }
    if (at(Tok::lbracket)) return elem_annotation(parse_access(id, *s));
    switch (s->kind) {
      case SymKind::int_param:
      case SymKind::bool_param:
        return term_annotation(Term::constant(s->value));
      case SymKind::float_param:
        return string_annotation(std::string(float_texts_[s->data]));
      case SymKind::set_param:
        return set_annotation(sets_[s->data]);
      case SymKind::variable:
        return term_annotation(Term::variable(static_cast<int>(s->value)));
      default:
        break;
    }
    Annotation a;
    a.kind = Annotation::Kind::array;
    switch (s->kind) {
      case SymKind::float_array:
        for (std::string_view t : float_arrays_[s->data])
          a.args.push_back(string_annotation(std::string(t)));
        break;
      case SymKind::set_array:
        for (const IntSet& set : set_arrays_[s->data]) a.args.push_back(set_annotation(set));
        break;
      default:
        a.args.reserve(arrays_[s->data].size());
        for (const Term& t : arrays_[s->data]) a.args.push_back(term_annotation(t));
        break;
    }
    return a;
  }

  static Annotation elem_annotation(const Elem& e) {
    switch (e.kind) {
      case Elem::Kind::float_:
        return string_annotation(std::string(e.text));
      case Elem::Kind::set:
        return set_annotation(e.set);
      default:
        return term_annotation(e.term);
    }
  }

  // Annotations of a declaration: the common bare flags are recognised without building a tree.
  DeclAnnotations parse_decl_annotations() {
    DeclAnnotations r;
    while (accept(Tok::double_colon)) {
      if (!at(Tok::ident)) {
        parse_ann_expr(1);
        continue;
      }
      Token id = tok_;
      advance();
      if (!at(Tok::lparen) && !at(Tok::lbracket)) {
        if (id.text == "output_var") {
          r.output_var = true;
        } else if (id.text == "var_is_introduced") {
          r.introduced = true;
        } else if (id.text == "is_defined_var") {
          r.defined = true;
        }
        continue;
      }
      Annotation a = parse_ann_identifier(id, 1);
      if (a.kind == Annotation::Kind::call && a.name == "output_array") {
        r.output_array = true;
        r.output_array_loc = id.loc;
        r.dims = output_dims(a, id.loc);
      }
    }
    return r;
  }

  std::vector<std::pair<std::int64_t, std::int64_t>> output_dims(const Annotation& a,
                                                                 Location loc) {
    const char* message = "output_array expects a list of index ranges";
    if (a.args.size() != 1 || a.args[0].kind != Annotation::Kind::array) fail(loc, message);
    std::vector<std::pair<std::int64_t, std::int64_t>> dims;
    for (const Annotation& r : a.args[0].args) {
      // A range literal is "..", a set parameter holding one range is "{}" of one "..".
      const Annotation* range = &r;
      if (range->kind == Annotation::Kind::call && range->name == "{}" && range->args.size() == 1) {
        range = &range->args[0];
      }
      if (range->kind != Annotation::Kind::call || range->name != ".." || range->args.size() != 2) {
        fail(loc, message);
      }
      dims.emplace_back(range->args[0].term.value, range->args[1].term.value);
    }
    if (dims.empty() || dims.size() > 6) {
      fail(loc, "output_array with " + std::to_string(dims.size()) +
                    " dimensions is not supported (1 to 6)");
    }
    return dims;
  }

  void add_array_output(const Token& name, const DeclAnnotations& anns, VarType type,
                        const std::vector<Term>& elements) {
    std::uint64_t product = 1;
    for (const auto& d : anns.dims) {
      std::uint64_t n = range_size(d.first, d.second);
      product = (n != 0 && product > std::numeric_limits<std::uint64_t>::max() / n)
                    ? std::numeric_limits<std::uint64_t>::max()
                    : product * n;
    }
    if (product != elements.size()) {
      fail(anns.output_array_loc, "output_array of " + quoted(name.text) + " describes " +
                                      std::to_string(product) + " elements but the array has " +
                                      std::to_string(elements.size()));
    }
    Output o;
    o.name = std::string(name.text);
    o.type = type;
    o.is_array = true;
    o.dims = anns.dims;
    o.elements = elements;
    model_.outputs.push_back(std::move(o));
  }

  void add_scalar_output(std::string_view name, VarType type, Term t) {
    Output o;
    o.name = std::string(name);
    o.type = type;
    o.elements.push_back(t);
    model_.outputs.push_back(std::move(o));
  }

  // --- items ---------------------------------------------------------------------------------

  TypeInfo parse_type() {
    TypeInfo t;
    if (at_keyword("int")) {
      advance();
    } else if (at_keyword("bool")) {
      advance();
      t.base = TypeInfo::Base::bool_;
      t.domain = IntSet::range(0, 1);
    } else if (at_keyword("float")) {
      advance();
      t.base = TypeInfo::Base::float_;
    } else if (at_keyword("set")) {
      advance();
      expect_keyword("of", "expected 'of' after 'set'");
      t.base = TypeInfo::Base::set;
      if (at_keyword("int")) {
        advance();
      } else if (at(Tok::int_lit) || at(Tok::lbrace)) {
        parse_element("expected the set's element type");
      } else {
        fail(tok_.loc, "expected the set's element type");
      }
    } else if (at(Tok::float_lit)) {
      parse_element("expected a type");
      t.base = TypeInfo::Base::float_;
    } else if (at(Tok::int_lit) || at(Tok::lbrace)) {
      Elem e = parse_element("expected a type");
      if (e.kind == Elem::Kind::float_) {
        t.base = TypeInfo::Base::float_;
      } else if (e.kind == Elem::Kind::set) {
        t.domain = std::move(e.set);
      } else {
        fail(tok_.loc, "expected '..' in range type");
      }
    } else {
      fail(tok_.loc, "expected a type");
    }
    return t;
  }

  void check_supported(const TypeInfo& t, Location loc, const char* what, std::string_view name) {
    if (t.base == TypeInfo::Base::float_) {
      fail(loc,
           std::string("float variables are not supported (") + what + " " + quoted(name) + ")");
    }
    if (t.base == TypeInfo::Base::set) {
      fail(loc, std::string("set variables are not supported (") + what + " " + quoted(name) + ")");
    }
  }

  void parse_var_decl() {
    Location start = tok_.loc;
    advance();  // var
    TypeInfo t = parse_type();
    expect(Tok::colon, "expected ':' after the variable's type");
    Token name = expect_name("expected a variable name");
    check_supported(t, start, "variable", name.text);
    DeclAnnotations anns = parse_decl_annotations();
    Variable v;
    v.name = std::string(name.text);
    v.type = t.base == TypeInfo::Base::bool_ ? VarType::bool_ : VarType::int_;
    v.domain = std::move(t.domain);
    v.introduced = anns.introduced;
    v.defined = anns.defined;
    v.loc = start;
    if (accept(Tok::equals))
      v.alias = scalar_term(parse_element("expected a value"), "float values are not supported",
                            "expected an integer or boolean value");
    expect_semicolon("expected ';' after variable declaration");
    VarType type = v.type;
    int index = add_variable(std::move(v));
    Symbol s;
    s.kind = SymKind::variable;
    s.value = index;
    declare(name, s);
    if (anns.output_array) {
      fail(anns.output_array_loc, "output_array on scalar variable " + quoted(name.text));
    }
    if (anns.output_var) add_scalar_output(name.text, type, Term::variable(index));
  }

  void parse_par_decl() {
    Location start = tok_.loc;
    TypeInfo t = parse_type();
    expect(Tok::colon, "expected ':' after the parameter's type");
    Token name = expect_name("expected a parameter name");
    DeclAnnotations anns = parse_decl_annotations();
    expect(Tok::equals, "expected '=' and a value for parameter " + quoted(name.text));
    std::string_view first_text = tok_.text;
    Elem e = parse_element("expected a value");
    Symbol s;
    VarType type = VarType::int_;
    switch (t.base) {
      case TypeInfo::Base::int_:
      case TypeInfo::Base::bool_:
        if (e.kind != Elem::Kind::term || e.term.is_variable()) {
          fail(e.loc, "expected a constant value for parameter " + quoted(name.text));
        }
        type = t.base == TypeInfo::Base::bool_ ? VarType::bool_ : VarType::int_;
        s.kind = t.base == TypeInfo::Base::bool_ ? SymKind::bool_param : SymKind::int_param;
        s.value = e.term.value;
        break;
      case TypeInfo::Base::float_:
        if (e.kind == Elem::Kind::float_) {
          float_texts_.push_back(e.text);
        } else if (e.kind == Elem::Kind::term && e.term.is_constant()) {
          float_texts_.push_back(first_text);
        } else {
          fail(e.loc, "expected a float value for parameter " + quoted(name.text));
        }
        s.kind = SymKind::float_param;
        s.data = float_texts_.size() - 1;
        break;
      case TypeInfo::Base::set:
        if (e.kind != Elem::Kind::set)
          fail(e.loc, "expected a set value for parameter " + quoted(name.text));
        s.kind = SymKind::set_param;
        s.data = sets_.size();
        sets_.push_back(std::move(e.set));
        break;
    }
    expect_semicolon("expected ';' after parameter declaration");
    declare(name, s);
    if (anns.output_var || anns.output_array) {
      Location loc = anns.output_array ? anns.output_array_loc : start;
      if (s.kind == SymKind::float_param || s.kind == SymKind::set_param) {
        fail(loc, std::string(s.kind == SymKind::float_param ? "float" : "set") +
                      " outputs are not supported (parameter " + quoted(name.text) + ")");
      }
      if (anns.output_array) fail(loc, "output_array on scalar parameter " + quoted(name.text));
      add_scalar_output(name.text, type, Term::constant(s.value));
    }
  }

  void parse_array_decl() {
    Location start = tok_.loc;
    advance();  // array
    expect(Tok::lbracket, "expected '[' after 'array'");
    std::int64_t lo = parse_int_value("expected an integer index set");
    expect(Tok::dotdot, "expected '..' in the index set");
    std::int64_t hi = parse_int_value("expected an integer after '..'");
    expect(Tok::rbracket, "expected ']' after the index set");
    expect_keyword("of", "expected 'of' after the index set");
    bool is_var = at_keyword("var");
    if (is_var) advance();
    TypeInfo t = parse_type();
    expect(Tok::colon, "expected ':' after the array's type");
    Token name = expect_name("expected an array name");
    // An empty array of float or set variables declares no variable: accepted, and printed empty.
    const bool empty = hi < lo;
    if (is_var && !empty) check_supported(t, start, "array", name.text);
    DeclAnnotations anns = parse_decl_annotations();
    if (!at(Tok::equals))
      fail(tok_.loc, "expected '=' and the elements of array " + quoted(name.text));
    advance();
    expect(Tok::lbracket, "expected '[' to start the elements of array " + quoted(name.text));

    Symbol s;
    s.lo = lo;
    std::size_t count = 0;
    std::vector<Term> terms;
    std::vector<std::string_view> floats;
    std::vector<IntSet> sets;
    if (!accept(Tok::rbracket)) {
      for (;;) {
        std::string_view first_text = tok_.text;
        Elem e = parse_element("expected an array element");
        switch (t.base) {
          case TypeInfo::Base::int_:
          case TypeInfo::Base::bool_: {
            Term term = array_term(e, "float values are not supported in an int or bool array");
            if (!is_var && term.is_variable()) {
              fail(e.loc, "parameter array " + quoted(name.text) + " cannot contain variables");
            }
            terms.push_back(term);
            break;
          }
          case TypeInfo::Base::float_:
            if (e.kind == Elem::Kind::float_) {
              floats.push_back(e.text);
            } else if (e.kind == Elem::Kind::term && e.term.is_constant()) {
              floats.push_back(first_text);
            } else {
              fail(e.loc, "expected a float element");
            }
            break;
          case TypeInfo::Base::set:
            if (e.kind != Elem::Kind::set) fail(e.loc, "expected a set element");
            sets.push_back(std::move(e.set));
            break;
        }
        ++count;
        if (accept(Tok::comma)) continue;
        expect(Tok::rbracket, "expected ',' or ']' in array literal");
        break;
      }
    }
    std::uint64_t declared = range_size(lo, hi);
    if (declared != count) {
      fail(start, "array " + quoted(name.text) + " declared with " + std::to_string(declared) +
                      " elements but has " + std::to_string(count));
    }
    expect_semicolon("expected ';' after array declaration");

    VarType type = VarType::int_;
    switch (t.base) {
      case TypeInfo::Base::int_:
      case TypeInfo::Base::bool_:
        type = t.base == TypeInfo::Base::bool_ ? VarType::bool_ : VarType::int_;
        s.kind = t.base == TypeInfo::Base::bool_ ? SymKind::bool_array : SymKind::int_array;
        s.data = arrays_.size();
        arrays_.push_back(std::move(terms));
        break;
      case TypeInfo::Base::float_:
        s.kind = SymKind::float_array;
        s.data = float_arrays_.size();
        float_arrays_.push_back(std::move(floats));
        break;
      case TypeInfo::Base::set:
        s.kind = SymKind::set_array;
        s.data = set_arrays_.size();
        set_arrays_.push_back(std::move(sets));
        break;
    }
    declare(name, s);
    if (anns.output_array && empty && (s.kind == SymKind::float_array || s.kind == SymKind::set_array)) {
      add_array_output(name, anns, type, {});
    } else if (anns.output_array) {
      if (s.kind == SymKind::float_array || s.kind == SymKind::set_array) {
        fail(anns.output_array_loc, std::string(s.kind == SymKind::float_array ? "float" : "set") +
                                        " outputs are not supported (array " + quoted(name.text) +
                                        ")");
      }
      add_array_output(name, anns, type, arrays_[s.data]);
    }
  }

  void parse_constraint() {
    Constraint c;
    c.loc = tok_.loc;
    advance();  // constraint
    if (!at(Tok::ident)) fail(tok_.loc, "expected a constraint name");
    c.name = std::string(tok_.text);
    advance();
    expect(Tok::lparen, "expected '(' after constraint name");
    if (!accept(Tok::rparen)) {
      arg_scratch_.clear();
      for (;;) {
        arg_scratch_.push_back(parse_arg());
        if (accept(Tok::comma)) continue;
        expect(Tok::rparen, "expected ',' or ')' after constraint argument");
        break;
      }
      c.args.assign(std::make_move_iterator(arg_scratch_.begin()),
                    std::make_move_iterator(arg_scratch_.end()));
    }
    c.annotations = parse_annotations();
    expect_semicolon("expected ';' after constraint");
    model_.constraints.push_back(std::move(c));
  }

  void parse_solve() {
    SolveGoal& goal = model_.solve;
    goal.loc = tok_.loc;
    advance();  // solve
    goal.annotations = parse_annotations();
    if (at_keyword("satisfy")) {
      advance();
      goal.kind = SolveGoal::Kind::satisfy;
    } else if (at_keyword("minimize") || at_keyword("maximize")) {
      goal.kind = at_keyword("minimize") ? SolveGoal::Kind::minimize : SolveGoal::Kind::maximize;
      advance();
      goal.objective =
          scalar_term(parse_element("expected the objective"), "float objectives are not supported",
                      "expected an integer or boolean objective");
    } else {
      fail(tok_.loc, "expected 'satisfy', 'minimize' or 'maximize'");
    }
    expect_semicolon("expected ';' after solve item");
    solve_seen_ = true;
  }

  // Predicate declarations only tell a FlatZinc consumer which globals the solver library
  // declared; kcp needs nothing from them, so their parameter lists are skipped token by token.
  void skip_predicate() {
    Location start = tok_.loc;
    advance();  // predicate
    if (!at(Tok::ident)) fail(tok_.loc, "expected a predicate name");
    advance();
    expect(Tok::lparen, "expected '(' after predicate name");
    for (long depth = 1; depth > 0;) {
      if (at(Tok::end)) fail(start, "unterminated predicate declaration");
      if (at(Tok::semicolon)) fail(tok_.loc, "expected ')' to close the predicate's parameters");
      if (at(Tok::lparen)) ++depth;
      if (at(Tok::rparen)) --depth;
      advance();
    }
    expect_semicolon("expected ';' after predicate declaration");
  }

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

Model parse_text(const std::string& text, const std::string& name) {
  return Parser(text, name).parse();
}

}  // namespace

ParseError::ParseError(std::string file, Location loc, const std::string& message)
    : LocatedError(file, loc, message),
      file_(std::move(file)),
      loc_(loc),
      message_(message) {}

Model parse_file(const std::string& path) {
  std::FILE* f = std::fopen(path.c_str(), "rb");
  if (!f) {
    throw ParseError(path, {}, "cannot open file: " + std::string(std::strerror(errno)));
  }
  // One read of the whole file (sized up front when the size is known): per-token stream reads
  // would dominate the parse of large instances.
  std::error_code ec;
  std::uintmax_t hint = std::filesystem::file_size(path, ec);
  std::string text;
  text.resize(ec || hint == 0 ? 1 << 16 : static_cast<std::size_t>(hint) + 1);
  std::size_t length = 0;
  for (;;) {
    std::size_t got = std::fread(&text[length], 1, text.size() - length, f);
    length += got;
    if (length < text.size()) break;
    text.resize(text.size() * 2);
  }
  int error = errno;
  bool failed = std::ferror(f) != 0;
  std::fclose(f);
  if (failed) throw ParseError(path, {}, "cannot read file: " + std::string(std::strerror(error)));
  text.resize(length);
  return parse_text(text, path);
}

Model parse_string(std::string_view text, const std::string& name) {
  return parse_text(std::string(text), name);
}

}  // namespace kcp::fzn
