// The FlatZinc parser's annotations (solver/fzn/parser.hpp): on constraints and the solve item as
// generic trees, on declarations what they mean for the model (output, introduced, defined).
#include "solver/fzn/parser_impl.hpp"

#include <string>
#include <utility>
#include <vector>

namespace kcp::fzn::detail {

Annotation Parser::parse_ann_expr(int depth) {
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

Annotation Parser::parse_ann_identifier(const Token& id, int depth) {
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

Annotation Parser::elem_annotation(const Elem& e) {
  switch (e.kind) {
    case Elem::Kind::float_:
      return string_annotation(std::string(e.text));
    case Elem::Kind::set:
      return set_annotation(e.set);
    default:
      return term_annotation(e.term);
  }
}

DeclAnnotations Parser::parse_decl_annotations() {
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

std::vector<std::pair<std::int64_t, std::int64_t>> Parser::output_dims(const Annotation& a, Location loc) {
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

void Parser::add_array_output(const Token& name, const DeclAnnotations& anns, VarType type, const std::vector<Term>& elements) {
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

void Parser::add_scalar_output(std::string_view name, VarType type, Term t) {
  Output o;
  o.name = std::string(name);
  o.type = type;
  o.elements.push_back(t);
  model_.outputs.push_back(std::move(o));
}

}  // namespace kcp::fzn::detail
