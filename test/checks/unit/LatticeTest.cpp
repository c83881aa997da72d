//===--- LatticeTest.cpp - The analysis' lattice --------------------------===//

#include "analysis/Lattice.h"
#include "tt/promotion_table.h"
#include <algorithm>
#include <gtest/gtest.h>
#include <iterator>

namespace clang::tidy::tensor {
namespace {

TEST(Lattice, DeviceJoinIsExact) {
  DeviceFact Unreached;
  EXPECT_EQ(join(Unreached, DeviceFact::cpu()), DeviceFact::cpu());
  EXPECT_EQ(join(DeviceFact::cuda(), Unreached), DeviceFact::cuda());
  EXPECT_EQ(join(DeviceFact::cpu(), DeviceFact::cpu()), DeviceFact::cpu());
  EXPECT_EQ(join(DeviceFact::cpu(), DeviceFact::cuda()).Kind,
            FactKind::Unknown);
  // Two cuda devices: still some cuda device, which differs from the cpu.
  EXPECT_EQ(join(DeviceFact::cuda(0), DeviceFact::cuda(1)), DeviceFact::cuda());
  EXPECT_EQ(join(DeviceFact::unknown(), DeviceFact::cpu()).Kind,
            FactKind::Unknown);
}

TEST(Lattice, DTypeJoinIsExact) {
  DTypeFact Half = DTypeFact::known(DType::Float16);
  EXPECT_EQ(join(DTypeFact(), Half), Half);
  EXPECT_EQ(join(Half, Half), Half);
  EXPECT_EQ(join(Half, DTypeFact::known(DType::Float32)).Kind,
            FactKind::Unknown);
}

// c10::promoteTypes, as torch.promote_types prints it.
TEST(Lattice, PromoteTypesFollowsC10) {
  EXPECT_EQ(promoteTypes(DType::Float16, DType::Float32), DType::Float32);
  EXPECT_EQ(promoteTypes(DType::Int64, DType::Float16), DType::Float16);
  EXPECT_EQ(promoteTypes(DType::Bool, DType::Int32), DType::Int32);
  EXPECT_EQ(promoteTypes(DType::UInt8, DType::Int8), DType::Int16);
  EXPECT_EQ(promoteTypes(DType::BFloat16, DType::Float16), DType::Float32);
  EXPECT_EQ(promoteTypes(DType::Float64, DType::Int64), DType::Float64);
  for (DType T : {DType::Bool, DType::Int32, DType::Float16, DType::Float64})
    EXPECT_EQ(promoteTypes(T, T), T);
}

// c10::canCast, which in-place and out= ops apply to their promoted result.
TEST(Lattice, CanCastFollowsC10) {
  EXPECT_FALSE(canCast(DType::Float32, DType::UInt8));
  EXPECT_FALSE(canCast(DType::Float16, DType::Int64));
  EXPECT_FALSE(canCast(DType::Int64, DType::Bool));
  EXPECT_FALSE(canCast(DType::Float32, DType::Bool));
  EXPECT_TRUE(canCast(DType::Int64, DType::UInt8));
  EXPECT_TRUE(canCast(DType::Float64, DType::Float16));
  EXPECT_TRUE(canCast(DType::Bool, DType::Int32));
  EXPECT_TRUE(canCast(DType::Bool, DType::Bool));
  EXPECT_TRUE(canCast(DType::Int32, DType::Float32));
}

// Every pair, through the table the runtime reads too (tt/promotion_table.h,
// held against c10::promoteTypes by test_promotion_table.cpp): the lattice
// maps its dtypes onto the table's and back by the right names.
TEST(Lattice, PromoteTypesReadsTheSharedTable) {
  using namespace tt::promotion;
  const std::pair<DType, Index> All[] = {
      {DType::Bool, b1},    {DType::UInt8, u1},    {DType::Int8, i1},
      {DType::Int16, i2},   {DType::Int32, i4},    {DType::Int64, i8},
      {DType::Float16, f2}, {DType::BFloat16, bf}, {DType::Float32, f4},
      {DType::Float64, f8}};
  for (auto [A, IA] : All)
    for (auto [B, IB] : All) {
      Index Want = promote(IA, IB);
      auto It = std::find_if(std::begin(All), std::end(All),
                             [&](const auto &P) { return P.second == Want; });
      ASSERT_NE(It, std::end(All));
      EXPECT_EQ(promoteTypes(A, B), It->first)
          << dtypeName(A).str() << " with " << dtypeName(B).str();
    }
}

TEST(Lattice, ProvablyDifferentOnlyWhenEveryRunFails) {
  EXPECT_TRUE(provablyDifferent(DeviceFact::cpu(), DeviceFact::cuda()));
  EXPECT_TRUE(provablyDifferent(DeviceFact::cuda(0), DeviceFact::cuda(1)));
  EXPECT_FALSE(provablyDifferent(DeviceFact::cuda(), DeviceFact::cuda(1)));
  EXPECT_FALSE(provablyDifferent(DeviceFact::cpu(), DeviceFact::cpu()));
  EXPECT_FALSE(provablyDifferent(DeviceFact::cpu(), DeviceFact::unknown()));
  // A Device variable that may hold cuda: the seeds' bug on a GPU machine.
  int Anchor = 0;
  const auto *Var = reinterpret_cast<const ValueDecl *>(&Anchor);
  EXPECT_TRUE(provablyDifferent(DeviceFact::cpu(),
                                DeviceFact::symbol(Var, /*MayBeCuda=*/true)));
  EXPECT_FALSE(provablyDifferent(DeviceFact::cpu(),
                                 DeviceFact::symbol(Var, /*MayBeCuda=*/false)));
  EXPECT_FALSE(provablyDifferent(DeviceFact::symbol(Var, true),
                                 DeviceFact::symbol(Var, true)));
}

TEST(Lattice, CpuScalarsMixWithAnyDevice) {
  TensorFact F = TensorFact::unknown();
  F.Device = DeviceFact::cpu();
  F.Dim = 0;
  EXPECT_TRUE(F.mayBeCpuScalar());
  F.Dim = -1; // unknown rank: may be 0-dim
  EXPECT_TRUE(F.mayBeCpuScalar());
  F.Dim = -2; // at least one dimension
  EXPECT_FALSE(F.mayBeCpuScalar());
  F.Dim = 2;
  EXPECT_FALSE(F.mayBeCpuScalar());
  F.Dim = 0;
  F.Device = DeviceFact::cuda();
  EXPECT_FALSE(F.mayBeCpuScalar());
}

} // namespace
} // namespace clang::tidy::tensor
