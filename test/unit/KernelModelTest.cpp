// The kernel model through its C++ API, on files of the lit corpus.
#include "TestInputs.h"

using namespace cro;
using namespace llvm;

namespace {

KernelModel analyze(StringRef RelPath) { return loadTestInput(RelPath).Model; }

const AccessInfo *findAccess(const KernelInfo &K, StringRef Base,
                             StringRef Mode) {
  for (const AccessInfo &A : K.Accesses)
    if (A.Base == Base && A.Mode == Mode)
      return &A;
  return nullptr;
}

TEST(KernelModel, NaiveMatmul) {
  KernelModel M = analyze("analyze/matmul-dim3.cu");
  ASSERT_EQ(M.Kernels.size(), 1u);
  const KernelInfo &K = M.Kernels[0];
  EXPECT_EQ(K.Name, "matmul");
  EXPECT_EQ(K.Sides, (std::vector<std::string>{"host", "device"}));
  ASSERT_EQ(K.Loops.size(), 1u);
  EXPECT_EQ(K.Loops[0].InductionVar, "k");

  const AccessInfo *A = findAccess(K, "A", "read");
  ASSERT_NE(A, nullptr);
  ASSERT_EQ(A->Indices.size(), 1u);
  ASSERT_TRUE(A->Indices[0].Affine);
  // Shared by all threads of a warp row: no threadIdx.x term.
  EXPECT_TRUE(A->Indices[0].Form.coefficient("threadIdx.x").isZero());
  EXPECT_EQ(A->Indices[0].Form.coefficient("k").constantValue(), 1);

  const AccessInfo *B = findAccess(K, "B", "read");
  ASSERT_NE(B, nullptr);
  EXPECT_EQ(B->Indices[0].Form.coefficient("threadIdx.x").constantValue(), 1);
  EXPECT_EQ(B->Indices[0].Form.coefficient("k").str(), "N");

  ASSERT_EQ(K.Launches.size(), 1u);
  const LaunchSite &L = K.Launches[0];
  EXPECT_EQ(L.Block.Variable, "block");
  ASSERT_EQ(L.Grid.Dims.size(), 3u);
  ASSERT_TRUE(L.Grid.Dims[1].Derived.has_value());
  EXPECT_EQ(L.Grid.Dims[1].Derived->BlockDim, "y");
  EXPECT_EQ(L.Grid.Dims[1].Derived->Extent, "M");
}

TEST(KernelModel, NonAffineIndicesCarryReasons) {
  KernelModel M = analyze("analyze/nonaffine.cu");
  ASSERT_FALSE(M.Kernels.empty());
  const KernelInfo &K = M.Kernels[0];
  unsigned NonAffine = 0;
  for (const AccessInfo &A : K.Accesses)
    for (const IndexInfo &I : A.Indices)
      if (!I.Affine) {
        ++NonAffine;
        EXPECT_EQ(I.NonAffineReason.rfind("index not affine: ", 0), 0u)
            << I.NonAffineReason;
      }
  EXPECT_GE(NonAffine, 3u);
}

TEST(KernelModel, TemplateInstantiationsAreNotSeparateKernels) {
  KernelModel M = analyze("analyze/template-block.cu");
  ASSERT_EQ(M.Kernels.size(), 1u);
  ASSERT_EQ(M.Kernels[0].Launches.size(), 1u);
  EXPECT_EQ(M.Kernels[0].Launches[0].Block.Dims[0].InstantiatedValues,
            (std::vector<int64_t>{128, 256}));
}

} // namespace
