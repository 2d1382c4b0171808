//===- Strategies.h - the built-in strategies' constructors ---------------===//
//
// One file per strategy in lib/Search; makeStrategy() picks one by name.
//
//===----------------------------------------------------------------------===//
#ifndef CRO_SEARCH_STRATEGIES_H
#define CRO_SEARCH_STRATEGIES_H

#include "cro/Search/Strategy.h"

namespace cro {

std::unique_ptr<SearchStrategy>
makeExhaustiveStrategy(const StrategyContext &Ctx);
std::unique_ptr<SearchStrategy> makeRandomStrategy(const StrategyContext &Ctx);
std::unique_ptr<SearchStrategy> makeAnnealStrategy(const StrategyContext &Ctx);
std::unique_ptr<SearchStrategy> makeGeneticStrategy(const StrategyContext &Ctx);
std::unique_ptr<SearchStrategy> makeBayesStrategy(const StrategyContext &Ctx);
std::unique_ptr<SearchStrategy> makeAgentStrategy(const StrategyContext &Ctx);
/// A policy in another process, over JSON lines (docs/search.md).
llvm::Expected<std::unique_ptr<SearchStrategy>>
makeExternalStrategy(llvm::StringRef Command, const StrategyContext &Ctx);

} // namespace cro

#endif
