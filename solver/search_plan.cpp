#include "solver/search_plan.hpp"

#include <map>

namespace kcp {

namespace {

const std::map<std::string, VarChoice>& var_choices() {
  static const std::map<std::string, VarChoice> m = {
      {"input_order", VarChoice::input_order},   {"first_fail", VarChoice::first_fail},
      {"anti_first_fail", VarChoice::anti_first_fail}, {"smallest", VarChoice::smallest},
      {"largest", VarChoice::largest},           {"occurrence", VarChoice::occurrence},
      {"most_constrained", VarChoice::most_constrained}, {"max_regret", VarChoice::max_regret},
  };
  return m;
}

const std::map<std::string, ValueChoice>& value_choices() {
  static const std::map<std::string, ValueChoice> m = {
      {"indomain_min", ValueChoice::min},         {"indomain", ValueChoice::min},
      {"indomain_max", ValueChoice::max},         {"indomain_split", ValueChoice::split},
      {"indomain_interval", ValueChoice::split},  {"indomain_reverse_split", ValueChoice::reverse_split},
      {"indomain_median", ValueChoice::median},   {"indomain_middle", ValueChoice::median},
      {"indomain_random", ValueChoice::random},   {"outdomain_min", ValueChoice::out_min},
      {"outdomain_max", ValueChoice::out_max},    {"outdomain_median", ValueChoice::out_median},
      {"outdomain_random", ValueChoice::out_random},
  };
  return m;
}

class Planner {
 public:
  Planner(const Compiled& c, SearchPlan& plan) : compiled_(c), plan_(plan) {}

  void annotation(const fzn::Annotation& a) {
    if (a.kind == fzn::Annotation::Kind::array) {
      for (const auto& e : a.args) annotation(e);
      return;
    }
    if (a.kind != fzn::Annotation::Kind::call) return;
    if (a.name == "seq_search") {
      for (const auto& e : a.args) annotation(e);
    } else if (a.name == "int_search" || a.name == "bool_search") {
      phase(a);
    } else {
      plan_.warnings.push_back("search annotation '" + a.name + "' is not supported: ignored");
    }
  }

 private:
  void phase(const fzn::Annotation& a) {
    if (a.args.size() < 3) {
      plan_.warnings.push_back(a.name + " with " + std::to_string(a.args.size()) + " arguments: ignored");
      return;
    }
    SearchPhase ph{VarChoice::first_fail, ValueChoice::split, {}};
    collect(a.args[0], ph.vars);
    const std::string vname = name_of(a.args[1]), valname = name_of(a.args[2]);
    if (const auto it = var_choices().find(vname); it != var_choices().end()) {
      ph.var_choice = it->second;
    } else {
      plan_.warnings.push_back("variable choice '" + vname + "' is not supported: first_fail instead");
    }
    if (const auto it = value_choices().find(valname); it != value_choices().end()) {
      ph.value_choice = it->second;
    } else {
      plan_.warnings.push_back("value choice '" + valname + "' is not supported: indomain_split instead");
    }
    if (!ph.vars.empty()) plan_.phases.push_back(std::move(ph));
  }

  static std::string name_of(const fzn::Annotation& a) {
    return a.kind == fzn::Annotation::Kind::call ? a.name : std::string();
  }

  /// The store variables of an annotation's variable array (constants are skipped).
  void collect(const fzn::Annotation& a, std::vector<int>& out) const {
    if (a.kind == fzn::Annotation::Kind::array) {
      for (const auto& e : a.args) collect(e, out);
    } else if (a.kind == fzn::Annotation::Kind::term && a.term.is_variable()) {
      const StoreRefTerm& r = compiled_.model_vars.at(a.term.var);
      if (!r.is_constant) out.push_back(r.var);
    }
  }

  const Compiled& compiled_;
  SearchPlan& plan_;
};

}  // namespace

namespace {
bool value_decision_annotation(const fzn::Annotation& a) {
  if (a.kind == fzn::Annotation::Kind::array || (a.kind == fzn::Annotation::Kind::call && a.name == "seq_search")) {
    for (const auto& e : a.args)
      if (value_decision_annotation(e)) return true;
    return false;
  }
  if (a.kind != fzn::Annotation::Kind::call || (a.name != "int_search" && a.name != "bool_search") || a.args.size() < 3)
    return false;
  const auto& v = a.args[2];
  if (v.kind != fzn::Annotation::Kind::call) return false;
  const auto it = value_choices().find(v.name);
  if (it == value_choices().end()) return false;
  switch (it->second) {
    case ValueChoice::median:
    case ValueChoice::random:
    case ValueChoice::out_median:
    case ValueChoice::out_random:
      return true;
    default:
      return false;
  }
}
}  // namespace

bool wants_value_decisions(const fzn::Model& model) {
  for (const auto& a : model.solve.annotations)
    if (value_decision_annotation(a)) return true;
  return false;
}

SearchPlan plan_search(const fzn::Model& model, const Compiled& compiled) {
  SearchPlan plan;
  Planner p(compiled, plan);
  for (const auto& a : model.solve.annotations) p.annotation(a);
  return plan;
}

}  // namespace kcp
