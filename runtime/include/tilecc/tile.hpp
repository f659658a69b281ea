// tilecc: the tile language (contract v1) and its host twin.
//
// Kernels written against this header compile with a C++20 compiler (tested: GCC 12, Clang 14,
// Clang 19) and run on the CPU through tilecc::host::launch; the tilecc translator parses the
// same source and prints CUDA. Every operation here is the reference semantics the generated
// code is tested against. The user's reference is docs/language.md.
//
// Misuse is a compile error whose first line names the broken rule (core.hpp explains how).
// The headers stay lean (no <string>, <vector>, <iostream>): the translator parses them for
// every kernel file.
//
//   core.hpp         tiles, shapes, operand classes, integer promotion, the shared rules
//   elementwise.hpp  operators, compound assignments, creation, cast, where, math, pow, round
//   shape.hpp        expand_dims, col, row, broadcast_to, reshape, trans
//   layout.hpp       task mappings (spatial, repeat, compose) and with_layout
//   memory.hpp       load, store, atomic_add, block pointers, barrier, hints
//   reduce.hpp       reductions and scans, with or without a combine function
//   dot.hpp          dot
//   program.hpp      program_id, num_programs, cdiv, scalar min/max, host::launch
#pragma once

#include "tilecc/core.hpp"
#include "tilecc/elementwise.hpp"
#include "tilecc/shape.hpp"
#include "tilecc/layout.hpp"
#include "tilecc/memory.hpp"
#include "tilecc/reduce.hpp"
#include "tilecc/dot.hpp"
#include "tilecc/program.hpp"

// ---- kernel markers -------------------------------------------------------------------
// For Clang (the translator, or a Clang host build) these become annotations the translator
// reads; the options are kept as written, as one string (`num_warps = W` with W a template
// parameter is fine: the translator resolves W per instantiation). For other compilers they
// expand to nothing.
#if defined(__clang__)
#define TILECC_KERNEL(...) [[clang::annotate("tilecc.kernel" __VA_OPT__(, #__VA_ARGS__))]]
#define TILECC_ALIGNED(N) [[clang::annotate("tilecc.aligned", N)]]
#define TILECC_MULTIPLE_OF(N) [[clang::annotate("tilecc.multiple_of", N)]]
#else
#define TILECC_KERNEL(...)
#define TILECC_ALIGNED(N)
#define TILECC_MULTIPLE_OF(N)
#endif
