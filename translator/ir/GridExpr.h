// Program-uniform integer scalars as expressions the launcher evaluates (GridExpr): the form a
// check over the grid (GridCheck) takes, and its textual IR.
#pragma once

#include "ir/IR.h"

#include <functional>
#include <optional>
#include <string>
#include <vector>

namespace tilecc::ir {

/// `v` as an expression of program ids, grid sizes, integer parameters, constants and aranges
/// (signed 32- and 64-bit integers: + − × / %, min, max, shifts, &, negation, widening; a tile
/// through splats, broadcasts and transposes, its elements as one range), or nothing where it
/// depends on anything else (a loop, memory, a persistent kernel's own grid).
std::optional<GridExpr> gridExprOf(const Kernel& k, const Value* v);

/// The textual IR form: `sub(mul(program_id(0), 256), %radius)`, `arange(64)`; `param` names a
/// parameter.
std::string printGridExpr(const GridExpr& e, const std::function<std::string(int)>& param);

/// As the source would write it, for comments and the report: `program_id(0) * 256 - radius`.
std::string describeGridExpr(const GridExpr& e, const std::function<std::string(int)>& param);

/// Adds the check `e >= 0` to the kernel's checks over the grid (once), described as the source
/// computes it (`program_id(0) * 64 + arange<64>() - k0 >= 0`), or as `name >= 0` where that is
/// long; `why`: the decision that needs it, `line`: where.
void addGridCheck(Kernel& k, GridExpr e, const std::string& name, std::string why, unsigned line);

/// The checks with distinct expressions, first of each (loads of one box start in two loops
/// check it at two lines): what a variant's condition and its launcher test.
std::vector<GridCheck> distinctGridChecks(const std::vector<GridCheck>& checks);

/// The name of a kind in that form (`add`, `program_id`, `i64`); parsing maps names back.
const char* gridExprName(GridExpr::Kind k);

}  // namespace tilecc::ir
