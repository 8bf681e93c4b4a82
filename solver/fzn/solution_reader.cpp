#include "solver/fzn/solution_reader.hpp"

#include <cctype>
#include <charconv>
#include <optional>
#include <unordered_map>

namespace kcp::fzn {

namespace {

std::string trim(const std::string& s) {
  std::size_t b = 0, e = s.size();
  while (b < e && std::isspace(static_cast<unsigned char>(s[b]))) ++b;
  while (e > b && std::isspace(static_cast<unsigned char>(s[e - 1]))) --e;
  return s.substr(b, e - b);
}

class Reader {
 public:
  Reader(const Model& m, const std::string& source) : m_(m), source_(source) {
    for (std::size_t i = 0; i < m.outputs.size(); ++i) outputs_.emplace(m.outputs[i].name, i);
  }

  std::vector<std::vector<std::int64_t>> run(std::istream& in) {
    std::vector<std::vector<std::int64_t>> out;
    start();
    std::string line, statement;
    int statement_line = 0;
    for (line_ = 1; std::getline(in, line); ++line_) {
      const std::string t = trim(line);
      if (statement.empty()) {
        if (t.empty() || t[0] == '%' || (t.size() >= 5 && t.compare(0, 5, "=====") == 0)) continue;
        if (t == "----------") {
          out.push_back(finish());
          start();
          continue;
        }
        statement_line = line_;
      }
      statement += t;
      if (!statement.empty() && statement.back() == ';') {
        assign(statement.substr(0, statement.size() - 1), statement_line);
        statement.clear();
      }
    }
    if (!statement.empty()) fail(statement_line, "an assignment without its closing ';'");
    if (assigned_any_) fail(line_, "a solution without its closing '----------'");
    return out;
  }

 private:
  [[noreturn]] void fail(int line, const std::string& what) const {
    throw SolutionError(source_, Location{line, 0}, what);
  }

  void start() {
    values_.assign(m_.variables.size(), std::nullopt);
    assigned_any_ = false;
  }

  std::int64_t scalar(const std::string& text, VarType type, int line) const {
    const std::string t = trim(text);
    if (type == VarType::bool_ || t == "true" || t == "false") {
      if (t == "true") return 1;
      if (t == "false") return 0;
      fail(line, "expected true or false, found '" + t + "'");
    }
    std::int64_t v = 0;
    const auto r = std::from_chars(t.data(), t.data() + t.size(), v);
    if (t.empty() || r.ec != std::errc() || r.ptr != t.data() + t.size())
      fail(line, "expected an integer, found '" + t + "'");
    return v;
  }

  void set(const Term& term, std::int64_t v, const std::string& name, int line) {
    if (term.is_constant()) {
      if (term.value != v)
        fail(line, name + ": a constant of the model is " + std::to_string(term.value) + ", not " + std::to_string(v));
      return;
    }
    auto& slot = values_[static_cast<std::size_t>(term.var)];
    if (slot && *slot != v)
      fail(line, name + ": variable " + m_.variables[static_cast<std::size_t>(term.var)].name + " given two values");
    slot = v;
  }

  void assign(const std::string& statement, int line) {
    const std::size_t eq = statement.find('=');
    if (eq == std::string::npos) fail(line, "expected 'name = value;'");
    const std::string name = trim(statement.substr(0, eq));
    const auto it = outputs_.find(name);
    if (it == outputs_.end()) fail(line, "'" + name + "' is not an output of the model");
    const Output& o = m_.outputs[it->second];
    std::string value = trim(statement.substr(eq + 1));
    assigned_any_ = true;
    if (!o.is_array) {
      set(o.elements.at(0), scalar(value, o.type, line), name, line);
      return;
    }
    const std::size_t open = value.find('['), close = value.rfind(']');
    if (open == std::string::npos || close == std::string::npos || close < open)
      fail(line, name + ": expected an array '[...]' or 'arrayNd(..., [...])'");
    std::vector<std::string> items;
    const std::string body = value.substr(open + 1, close - open - 1);
    for (std::size_t from = 0; !trim(body).empty();) {
      const std::size_t comma = body.find(',', from);
      items.push_back(body.substr(from, comma == std::string::npos ? std::string::npos : comma - from));
      if (comma == std::string::npos) break;
      from = comma + 1;
    }
    if (items.size() != o.elements.size())
      fail(line, name + ": " + std::to_string(items.size()) + " values for " + std::to_string(o.elements.size()) +
                     " elements");
    for (std::size_t i = 0; i < items.size(); ++i) set(o.elements[i], scalar(items[i], o.type, line), name, line);
  }

  std::vector<std::int64_t> finish() {
    std::vector<std::int64_t> v(values_.size());
    // Aliases may chain: resolve until nothing changes.
    for (bool changed = true; changed;) {
      changed = false;
      for (std::size_t i = 0; i < values_.size(); ++i) {
        const Variable& var = m_.variables[i];
        if (values_[i] || !var.alias) continue;
        const Term& a = *var.alias;
        if (a.is_constant()) {
          values_[i] = a.value;
        } else if (values_[static_cast<std::size_t>(a.var)]) {
          values_[i] = values_[static_cast<std::size_t>(a.var)];
        } else {
          continue;
        }
        changed = true;
      }
    }
    for (std::size_t i = 0; i < values_.size(); ++i) {
      const Variable& var = m_.variables[i];
      if (!values_[i] && var.domain && var.domain->ranges.size() == 1 &&
          var.domain->ranges[0].first == var.domain->ranges[0].second)
        values_[i] = var.domain->ranges[0].first;
      if (!values_[i]) fail(line_, "no value for variable " + var.name + " (not an output of the model)");
      v[i] = *values_[i];
    }
    return v;
  }

  const Model& m_;
  std::string source_;
  std::unordered_map<std::string, std::size_t> outputs_;
  std::vector<std::optional<std::int64_t>> values_;
  bool assigned_any_ = false;
  int line_ = 0;
};

}  // namespace

std::vector<std::vector<std::int64_t>> read_solutions(const Model& model, std::istream& in, const std::string& source) {
  return Reader(model, source).run(in);
}

}  // namespace kcp::fzn
