// The promotion table (tt/promotion_table.h), which the runtime and the
// checks both read, against LibTorch's own c10::promoteTypes for every pair
// of the dtypes it covers.
#include <c10/core/ScalarType.h>
#include <gtest/gtest.h>

#include "tt/promotion_table.h"
#include "tt/scalar_type.h"

namespace {

// tt's dtypes by c10's name: tt keeps c10's names (TT_FORALL_SCALAR_TYPES).
struct Pair {
  tt::ScalarType Tt;
  c10::ScalarType C10;
};
const Pair kPairs[] = {
#define TT_PAIR(ctype, name, py) {tt::ScalarType::name, c10::ScalarType::name},
    TT_FORALL_SCALAR_TYPES(TT_PAIR)
#undef TT_PAIR
};

TEST(PromotionTable, EqualsC10PromoteTypesForEveryPair) {
  ASSERT_EQ(std::size(kPairs), static_cast<size_t>(tt::promotion::kCount));
  int Checked = 0;
  for (const Pair& A : kPairs)
    for (const Pair& B : kPairs) {
      const c10::ScalarType Want = c10::promoteTypes(A.C10, B.C10);
      const tt::ScalarType Got = tt::promote_types(A.Tt, B.Tt);
      EXPECT_EQ(tt::to_string(Got), c10::toString(Want)) << tt::to_string(A.Tt) << " with " << tt::to_string(B.Tt);
      // The table itself, as the checks index it.
      EXPECT_EQ(static_cast<int>(tt::promotion::promote(static_cast<tt::promotion::Index>(A.Tt),
                                                        static_cast<tt::promotion::Index>(B.Tt))),
                static_cast<int>(Got));
      ++Checked;
    }
  EXPECT_EQ(Checked, 100);
}

TEST(PromotionTable, UndefinedJoinsAsTheOther) {
  EXPECT_EQ(tt::promote_types(tt::ScalarType::Undefined, tt::kHalf), tt::kHalf);
  EXPECT_EQ(tt::promote_types(tt::kLong, tt::ScalarType::Undefined), tt::kLong);
}

}  // namespace
