// The type promotion table: c10's _promoteTypesLookup (c10/core/ScalarType.h,
// promoteTypes) over the dtypes tt and the checks know. The one copy: the
// runtime's promote_types and the checks' lattice (checks/analysis/
// Lattice.cpp) both read it, and test/runtime/test_promotion_table.cpp holds
// it against LibTorch's own promoteTypes for every pair.
//
// Dependency-free on purpose: checks/ includes it without the runtime.
#pragma once

namespace tt::promotion {

/// The table's dtypes, in the order of tt::ScalarType (TT_FORALL_SCALAR_TYPES),
/// named by c10's short codes: u1 = uint8 (Byte), i1 = int8 (Char), ...,
/// f2 = float16 (Half), bf = bfloat16, b1 = bool.
enum Index : unsigned char { u1, i1, i2, i4, i8, f2, bf, f4, f8, b1, kCount };

/// kTable[a][b]: the dtype a and b promote to. Bool joins anything as the
/// other; integers widen (uint8 with int8 needs int16); a floating dtype
/// beats every integer; float16 with bfloat16 is float32.
inline constexpr Index kTable[kCount][kCount] = {
    //        u1  i1  i2  i4  i8  f2  bf  f4  f8  b1
    /* u1 */ {u1, i2, i2, i4, i8, f2, bf, f4, f8, u1},
    /* i1 */ {i2, i1, i2, i4, i8, f2, bf, f4, f8, i1},
    /* i2 */ {i2, i2, i2, i4, i8, f2, bf, f4, f8, i2},
    /* i4 */ {i4, i4, i4, i4, i8, f2, bf, f4, f8, i4},
    /* i8 */ {i8, i8, i8, i8, i8, f2, bf, f4, f8, i8},
    /* f2 */ {f2, f2, f2, f2, f2, f2, f4, f4, f8, f2},
    /* bf */ {bf, bf, bf, bf, bf, f4, bf, f4, f8, bf},
    /* f4 */ {f4, f4, f4, f4, f4, f4, f4, f4, f8, f4},
    /* f8 */ {f8, f8, f8, f8, f8, f8, f8, f8, f8, f8},
    /* b1 */ {u1, i1, i2, i4, i8, f2, bf, f4, f8, b1},
};

/// The dtype a and b promote to (indices of Index; kCount for none).
constexpr Index promote(Index a, Index b) { return a < kCount && b < kCount ? kTable[a][b] : kCount; }

}  // namespace tt::promotion
