//===- BlockSize.h - the thread-block shape of a kernel's launches --------===//
#ifndef CRO_TRANSFORMS_BLOCKSIZE_H
#define CRO_TRANSFORMS_BLOCKSIZE_H

#include "cro/Rewrite/Transform.h"
#include <optional>

namespace cro {

/// Knob `<kernel>.block`: the block shape of every launch of the kernel
/// (an integer for 1D, [x, y] or [x, y, z]). Legal when each block dimension
/// is a compile-time literal, macro or constant; each grid dimension either
/// follows the block (ceil-div and friends) or does not matter (grid-stride
/// loops); and the body does not hard-code the block size. Macros and
/// constants are never redefined for other users: the kernel gets its own
/// (`#define saxpy_BLOCK 128` after `#define BLOCK 256`), and only the
/// kernel's body and its launches are switched to it. Grids derived from a
/// literal block size are recomputed.
class BlockSize : public Transform {
public:
  llvm::StringRef name() const override { return "block-size"; }
  KnobRole role() const override { return KnobRole::BlockShape; }
  void describe(const RewriteContext &Ctx, const KernelInfo &K,
                KnobSink &Out) const override;
  llvm::Error apply(const RewriteContext &Ctx, const Knob &K,
                    const llvm::json::Value &V, const ResolvedConfig &Config,
                    EditSet &Out) const override;

  /// The block shape a knob value stands for.
  static std::vector<int64_t> shapeOf(const llvm::json::Value &V);
  /// Threads per block of kernel K in a variant: the block-size knob's value
  /// when there is one, else the launches' (when constant and all equal).
  static std::optional<int64_t> threadsPerBlock(const KernelInfo &K,
                                                const ResolvedConfig &Config);
  /// The launches' current block shape, when constant and all equal.
  static std::optional<std::vector<int64_t>> currentShape(const KernelInfo &K);
  /// The launches choose the block at run time and the knob may replace it
  /// by a constant (a grid of one thread per index recomputed at each
  /// launch): a transform that sizes shared memory by the block may then
  /// work with the constant a variant sets.
  static bool runtimeBlockReplaceable(const RewriteContext &Ctx,
                                      const KernelInfo &K);
  /// In this variant the knob replaces such a run-time block by a constant:
  /// the launches' grids are then block-size's to write (register tiles
  /// included, see apply), not the other transforms'.
  static bool replacesRuntimeBlock(const RewriteContext &Ctx,
                                   const KernelInfo &K,
                                   const ResolvedConfig &Config);
  /// Threads per block of that shape (nullopt as for currentShape).
  static std::optional<int64_t> currentThreadsPerBlock(const KernelInfo &K);
};

} // namespace cro

#endif
