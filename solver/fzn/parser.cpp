// The FlatZinc front end (solver/fzn/parser.hpp): the parser's items (declarations, constraints, the
// solve item) and the values they hold; the lexer is in lexer.hpp, annotations in parser_annotations.cpp.
#include "solver/fzn/parser.hpp"

#include "solver/fzn/parser_impl.hpp"

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

namespace kcp::fzn::detail {

Model Parser::parse() {
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

void Parser::reserve(const std::string& text) {
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

int Parser::add_variable(Variable v) {
  if (model_.variables.size() >= static_cast<std::size_t>(INT_MAX)) {
    fail(v.loc, "too many variables");
  }
  model_.variables.push_back(std::move(v));
  return static_cast<int>(model_.variables.size() - 1);
}

std::size_t Parser::array_size(const Symbol& s) const {
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

std::int64_t Parser::parse_int_value(const char* message) {
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

Elem Parser::finish_int(Elem e, std::int64_t v) {
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

Elem Parser::parse_element(const char* message) {
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

Elem Parser::parse_identifier_element() {
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

Elem Parser::parse_access(const Token& id, const Symbol& s) {
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

Elem Parser::parse_set_literal() {
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

Term Parser::array_term(const Elem& e, const char* float_message) {
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

Arg Parser::parse_arg() {
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

Term Parser::scalar_term(const Elem& e, const char* float_message, const char* other_message) {
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

TypeInfo Parser::parse_type() {
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

void Parser::check_supported(const TypeInfo& t, Location loc, const char* what, std::string_view name) {
  if (t.base == TypeInfo::Base::float_) {
    fail(loc,
         std::string("float variables are not supported (") + what + " " + quoted(name) + ")");
  }
  if (t.base == TypeInfo::Base::set) {
    fail(loc, std::string("set variables are not supported (") + what + " " + quoted(name) + ")");
  }
}

void Parser::parse_var_decl() {
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

void Parser::parse_par_decl() {
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

void Parser::parse_array_decl() {
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

void Parser::parse_constraint() {
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

void Parser::parse_solve() {
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

void Parser::skip_predicate() {
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

Model parse_text(const std::string& text, const std::string& name) {
  return Parser(text, name).parse();
}

}  // namespace kcp::fzn::detail

namespace kcp::fzn {

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
  return detail::parse_text(text, path);
}

Model parse_string(std::string_view text, const std::string& name) {
  return detail::parse_text(std::string(text), name);
}

}  // namespace kcp::fzn
