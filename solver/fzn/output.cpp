#include "solver/fzn/output.hpp"

#include <charconv>
#include <stdexcept>
#include <string>

namespace kcp::fzn {

namespace {

void append_int(std::string& out, std::int64_t v) {
  char buf[24];
  auto result = std::to_chars(buf, buf + sizeof buf, v);
  out.append(buf, result.ptr);
}

void append_value(std::string& out, const Output& o, const Term& t,
                  const std::vector<std::int64_t>& values) {
  std::int64_t v = t.value;
  if (t.is_variable()) {
    if (t.var < 0 || static_cast<std::size_t>(t.var) >= values.size()) {
      throw std::out_of_range("print_solution: no value for variable " + std::to_string(t.var) +
                              " of output '" + o.name + "'");
    }
    v = values[static_cast<std::size_t>(t.var)];
  }
  if (o.type == VarType::bool_) {
    out += v != 0 ? "true" : "false";
  } else {
    append_int(out, v);
  }
}

}  // namespace

void print_solution(std::ostream& os, const Model& model, const std::vector<std::int64_t>& values) {
  // Built in one string and written once: an error leaves nothing half-printed, and a large
  // array costs one stream write instead of one per element.
  std::string out;
  for (const Output& o : model.outputs) {
    out += o.name;
    out += " = ";
    if (!o.is_array) {
      if (o.elements.empty())
        throw std::out_of_range("print_solution: output '" + o.name + "' has no value");
      append_value(out, o, o.elements.front(), values);
      out += ";\n";
      continue;
    }
    // An array without dims (never produced by the parser) prints as one-dimensional.
    std::size_t dims = o.dims.empty() ? 1 : o.dims.size();
    out += "array";
    append_int(out, static_cast<std::int64_t>(dims));
    out += "d(";
    if (o.dims.empty()) {
      out += "1..";
      append_int(out, static_cast<std::int64_t>(o.elements.size()));
      out += ", ";
    }
    for (const auto& d : o.dims) {
      append_int(out, d.first);
      out += "..";
      append_int(out, d.second);
      out += ", ";
    }
    out += '[';
    for (std::size_t i = 0; i < o.elements.size(); ++i) {
      if (i > 0) out += ", ";
      append_value(out, o, o.elements[i], values);
    }
    out += "]);\n";
  }
  out += "----------\n";
  os.write(out.data(), static_cast<std::streamsize>(out.size()));
}

}  // namespace kcp::fzn
