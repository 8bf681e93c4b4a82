// The "ternary-only" form of a program, for the ablation of native linear rows (perf/, issue 7):
// every linear row rewritten as Turbo's ternary normal form x = y op z, so that one model can run
// both ways on the same engine.
//
//   sum a_i x_i (k) c, reified by b      ->   t_i = a_i * x_i            (mul by a constant; none for a_i = 1)
//                                              s_2 = t_1 + t_2, ..., s_n  (add chain, fresh variables)
//                                              k = le:  s_n <= c          (root bound)   or  b <-> le_reif(s_n, c)
//                                              k = eq:  s_n = c           (root bound)   or  b <-> eq_reif(s_n, c)
//                                              k = ne:  0 = eq_reif(s_n, c)              or  1 = b + eq_reif(s_n, c)
//                                              b -> row:  r <-> row as above, r = max(b, r) (so b <= r)
//
// Constants are fixed store variables. A fresh variable's root domain is the interval of what it
// stands for; a row where one of those intervals (or c) leaves the store's 32-bit range stays a native
// row (a clamped domain would lose solutions) and is counted. Sound: every rewriting has exactly the
// row's solutions on the original variables, the fresh ones being functions of them.
#pragma once

#include "domains/program.hpp"

namespace kcp {

struct TernarizeStats {
  int rows_rewritten = 0;
  int rows_kept = 0;  ///< native because an intermediate interval leaves the store's range
  int ternaries_added = 0;
  int variables_added = 0;
};

/// Rewrites p's rows in place as described above; elements and ternaries are left as they are.
TernarizeStats ternarize_rows(Program& p);

}  // namespace kcp
