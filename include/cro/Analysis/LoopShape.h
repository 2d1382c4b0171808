//===- LoopShape.h - which kernel loops can be strip-mined or interchanged ===//
#ifndef CRO_ANALYSIS_LOOPSHAPE_H
#define CRO_ANALYSIS_LOOPSHAPE_H

#include "cro/Analysis/ASTHelpers.h"
#include "cro/Analysis/KernelModel.h"
#include "clang/AST/Decl.h"

namespace cro {

/// Fills each for loop's Header, Body, VarType, StripMineRefusal, InnerLoop
/// and InterchangeRefusal in Info.Loops. Needs Info.Loops and Info.Params.
///
/// Strip-mining keeps the iteration order, so it only needs the loop to be
/// canonical and not left early. Interchanging a perfect nest reorders the
/// iterations, which is proven harmless when every memory write of the body
/// goes to an element only that iteration touches (the index is
/// i * extent_j + j, or j * extent_i + i, with 0-based loops) and no
/// variable declared outside the body is written (a reduction into one
/// would change its floating-point rounding).
void analyzeLoopShapes(const clang::FunctionDecl *Kernel,
                       const SourceText &Text, KernelInfo &Info);

} // namespace cro

#endif
