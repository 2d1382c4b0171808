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

/// What an external policy's answer to "ask" holds: the proposals (at most
/// N, in its order) and the entries the space refuses, each with the reason
/// (they go back to the policy as invalid). A line that is not
/// {"configs": [...]} makes Failure say so, and nothing is proposed.
struct ExternalReply {
  std::vector<Proposal> Proposals;
  std::vector<std::pair<llvm::json::Value, std::string>> Rejected;
  std::string Failure;
};
ExternalReply parseExternalReply(llvm::StringRef Line, const SearchSpace &Space,
                                 unsigned N);

} // namespace cro

#endif
