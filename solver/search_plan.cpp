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
      {"dom_w_deg", VarChoice::dom_wdeg},
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

/// The solve item's annotation a, walked through arrays and seq_search: on_search for each int_search
/// or bool_search call, on_other for each other call.
template <class OnSearch, class OnOther>
void walk_search(const fzn::Annotation& a, const OnSearch& on_search, const OnOther& on_other) {
  if (a.kind == fzn::Annotation::Kind::array) {
    for (const auto& e : a.args) walk_search(e, on_search, on_other);
    return;
  }
  if (a.kind != fzn::Annotation::Kind::call) return;
  if (a.name == "seq_search") {
    for (const auto& e : a.args) walk_search(e, on_search, on_other);
  } else if (a.name == "int_search" || a.name == "bool_search") {
    on_search(a);
  } else {
    on_other(a);
  }
}

class Planner {
 public:
  Planner(const Compiled& c, SearchPlan& plan) : compiled_(c), plan_(plan) {}

  void annotation(const fzn::Annotation& a) {
    walk_search(
        a, [&](const fzn::Annotation& search) { phase(search); },
        [&](const fzn::Annotation& other) {
          plan_.warnings.push_back("search annotation '" + other.name + "' is not supported: ignored");
        });
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

/// Whether `pred` holds for one of the solve item's search annotations (int_search and the like,
/// inside seq_search and priority_search too).
template <class Pred>
bool any_search(const fzn::Model& model, const Pred& pred) {
  bool any = false;
  for (const auto& a : model.solve.annotations)
    walk_search(a, [&](const fzn::Annotation& search) { any = any || pred(search); }, [](const fzn::Annotation&) {});
  return any;
}

/// The search annotation's choice at `at` (1: variable, 2: value) in `choices`, or nullptr.
template <class Choice>
const Choice* choice_at(const fzn::Annotation& search, std::size_t at, const std::map<std::string, Choice>& choices) {
  if (search.args.size() <= at || search.args[at].kind != fzn::Annotation::Kind::call) return nullptr;
  const auto it = choices.find(search.args[at].name);
  return it == choices.end() ? nullptr : &it->second;
}

}  // namespace

bool wants_value_decisions(const fzn::Model& model) {
  return any_search(model, [](const fzn::Annotation& search) {
    const ValueChoice* v = choice_at(search, 2, value_choices());
    return v != nullptr && (*v == ValueChoice::median || *v == ValueChoice::random || *v == ValueChoice::out_median ||
                            *v == ValueChoice::out_random);
  });
}

bool search_reads_holes(const fzn::Model& model) {
  return wants_value_decisions(model) || any_search(model, [](const fzn::Annotation& search) {
           const VarChoice* v = choice_at(search, 1, var_choices());
           return v != nullptr && (*v == VarChoice::first_fail || *v == VarChoice::anti_first_fail ||
                                   *v == VarChoice::most_constrained || *v == VarChoice::max_regret ||
                                   *v == VarChoice::dom_wdeg);
         });
}

SearchPlan plan_search(const fzn::Model& model, const Compiled& compiled) {
  SearchPlan plan;
  Planner p(compiled, plan);
  for (const auto& a : model.solve.annotations) p.annotation(a);
  return plan;
}

}  // namespace kcp
