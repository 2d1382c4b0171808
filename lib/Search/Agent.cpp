//===- Agent.cpp - the default strategy: moves chosen by what has paid ----===//
//
// The agent searches the way an engineer tunes a kernel: it takes one of
// the best variants so far and makes a move -- changes the knobs of one
// transform (block size, register tiling, staging, ...) -- keeps what pays,
// and learns which kinds of move pay on this kernel.
//
//  - Move types are the knob roles present in the space (Knob.h: block
//    shape, register tiling, staging, ...), whichever transforms offer
//    them. Each is an arm of a Bernoulli bandit (Thompson sampling): a move
//    pays when the child is at least 1% faster than its parent.
//  - It opens with two points drawn at random (after any configurations
//    transferred from similar kernels), from a generator seeded as random
//    search's: on a space where much is good they find it as soon as random
//    search would, and they show the model how far the space varies.
//    Then probes: one move of each role from the best variant so far (the
//    original until something beats it), the block shape first (two
//    probes, a step larger then smaller). A space with one move type (no
//    roles: a foreign recording) has nothing to probe; its opening is an
//    initial design instead, one random point per knob, as a model-based
//    search starts.
//  - It never ends below the best block shape alone, the classic
//    autotuner's result: when every combination of the block-shape knobs
//    fits in half the budget it sweeps them all (else, when it fits, each
//    block knob alone and then the per-kernel bests together), one sweep
//    point every other proposal, and the loop does not stop for
//    convergence before the sweep is done.
//  - The arms start from priors: the kernel's features (a reduction loop
//    favours staging and register tiling, a streaming kernel coarsening and
//    vectorization), and transfer from earlier searches of similar kernels
//    in the tuning database, whose best configurations are also tried first.
//  - The profiler's facts about the best variant steer it: many registers
//    or low occupancy raise the launch-bounds and register-cap arms.
//  - Within a move type, a random-forest surrogate fitted to every result
//    ranks the candidate children (one knob of the transform changed, or
//    one of its knobs plus one other) by expected improvement.
//  - Exploring -- a point anywhere, by expected improvement once the model
//    has seen more points than the space has knobs, at random before -- is
//    an arm too: it pays when it beats the best known when proposed (the
//    opening's random points count), and competes with the move types in
//    the draw, so where the best's neighbours pay less often than points
//    elsewhere the agent looks elsewhere more. A further share of
//    proposals (falling from 15% to 5% over the budget, doubled after 12
//    proposals without improvement) explores whatever the draw, so a wrong
//    prior cannot trap the search.
// Each proposal says which move it made and why.
//
//===----------------------------------------------------------------------===//
#include "cro/Search/RandomForest.h"
#include "cro/Search/Strategies.h"
#include "llvm/Support/FormatVariadic.h"
#include <cmath>
#include <deque>

using namespace llvm;

namespace cro {

namespace {

/// The move type a knob belongs to: its role.
std::string moveOf(const Dimension &D) { return roleName(D.Role).str(); }
const std::string BlockMove = roleName(KnobRole::BlockShape).str();
/// The move type of a proposal made anywhere in the space (the opening's
/// random points, exploration by expected improvement); not a knob role.
const std::string ExploreMove = "explore";

struct Arm {
  double Paid = 1, Unpaid = 1; ///< Beta posterior
  unsigned Tried = 0, Won = 0;
  void record(bool Pays) {
    ++Tried;
    Won += Pays;
    (Pays ? Paid : Unpaid) += 1;
  }
};

/// A result pays against a reference time when it is at least 1% faster.
bool pays(const Trial &T, double ReferenceMs) {
  return T.ok() && *T.Time < 0.99 * ReferenceMs;
}

class Agent : public StrategyBase {
public:
  explicit Agent(const StrategyContext &Ctx) : StrategyBase(Ctx) {
    for (const Dimension &D : Space.dimensions())
      Arms.try_emplace(moveOf(D));
    Arms.try_emplace(ExploreMove);
    for (const Dimension &D : Space.dimensions())
      Tunable += D.Values.size() > 1;
    applyFeaturePriors();
    applyTransferPriors();
    TransferredInOpening = Opening.size();
    planProbes();
    // Without probes (one move type: no roles or priors say where to
    // look), the opening is an initial design, as a model-based search
    // starts: with the original, one point more than the space has knobs,
    // before the model's expected improvement is trusted.
    if (FirstProbes.empty() && LaterProbes.empty())
      OpeningRandomLeft = std::max<unsigned>(OpeningRandomLeft, Tunable);
    planBlockSweep();
  }

  unsigned committed() const override {
    return unsigned(Sweep.size()) + (SweepCombinationDue ? 1 : 0);
  }
  StringRef name() const override { return "agent"; }

  std::vector<Proposal> ask(unsigned N) override {
    std::vector<Proposal> Out;
    fitModel();
    while (Out.size() < N) {
      if (OpeningRandomLeft > 0 && OpeningTaken >= TransferredInOpening) {
        --OpeningRandomLeft;
        if (std::optional<Point> P = randomFresh(OpeningRng)) {
          Out.push_back(offer(std::move(*P),
                              "opening: a random point, as good a first "
                              "guess as any before anything is measured",
                              ExploreMove));
          continue;
        }
      }
      if (!Opening.empty()) {
        Proposal P = std::move(Opening.front());
        Opening.pop_front();
        ++OpeningTaken;
        if (fresh(P.P))
          Out.push_back(offer(std::move(P.P), P.Why, P.Move));
        continue;
      }
      if (!FirstProbes.empty()) {
        // From the best variant known now: the original when the opening
        // is still being measured (a batch is asked before the previous
        // one is told when measuring overlaps building, and a GPU batch
        // may hold every core's build).
        ProbePlan Plan = std::move(FirstProbes.front());
        FirstProbes.pop_front();
        if (std::optional<Proposal> P = probe(Plan))
          Out.push_back(offer(std::move(P->P), P->Why, P->Move));
        continue;
      }
      if (std::optional<Proposal> P = nextSweepPoint()) {
        Out.push_back(offer(std::move(P->P), P->Why, P->Move));
        continue;
      }
      std::optional<Proposal> P = combine();
      std::uniform_real_distribution<double> U(0, 1);
      bool Warm = Model.trained() && ranked().size() >= 2;
      bool Trusted = Warm && modelTrusted();
      if (P) {
        // A combination of moves that each paid comes first.
      } else if (!LaterProbes.empty() && U(Rng) < 0.35) {
        ProbePlan Plan = std::move(LaterProbes.front());
        LaterProbes.pop_front();
        P = probe(Plan);
        if (!P)
          continue;
      } else if (!Warm || U(Rng) < explorationShare())
        P = explore(Trusted);
      else
        P = move();
      if (!P)
        P = explore(Trusted);
      if (!P)
        break;
      Out.push_back(offer(std::move(P->P), P->Why, P->Move));
    }
    return Out;
  }

protected:
  void observe(const Trial &T) override {
    ModelStale = true;
    if (Best && T.ok() && &Told.at(T.P) == Best)
      LastImprovement = Order.size();
    if (auto E = ExploreIncumbent.find(T.P); E != ExploreIncumbent.end()) {
      // A global proposal pays when it beats the best known when it was
      // made, as a move pays when it beats its parent (the best, mostly).
      Arms[ExploreMove].record(pays(T, E->second));
      ExploreIncumbent.erase(E);
      return;
    }
    auto It = Parents.find(T.P);
    if (It == Parents.end())
      return;
    auto ParentIt = Told.find(It->second.first);
    if (ParentIt == Told.end())
      return;
    Arms[It->second.second].record(ParentIt->second.ok() &&
                                   pays(T, *ParentIt->second.Time));
  }

private:
  /// Proposes P; a global proposal (a random or model-chosen point
  /// anywhere) remembers the best time when it was made, so that its
  /// result teaches the explore arm whether looking elsewhere pays here.
  Proposal offer(Point P, std::string Why, std::string Move) {
    if (Move == ExploreMove && Best)
      ExploreIncumbent[P] = *Best->Time;
    return propose(std::move(P), std::move(Why), std::move(Move));
  }

  void applyFeaturePriors() {
    auto Boost = [&](KnobRole R, double Paid, double Unpaid) {
      auto It = Arms.find(roleName(R).str());
      if (It != Arms.end()) {
        It->second.Paid += Paid;
        It->second.Unpaid += Unpaid;
      }
    };
    const KernelFeatures &F = Ctx.Features;
    if (F.HasReductionLoop) {
      // Reused operands in a reduction loop: the memory hierarchy is what
      // matters (issue 4's measurements: 4.9x from staging + tiling).
      Boost(KnobRole::SharedStaging, 2, 0);
      Boost(KnobRole::RegisterTiling, 2, 0);
      // A global accumulator read and written every iteration.
      Boost(KnobRole::ScalarReplacement, 1, 0);
      // A thread per output looping over a row: lanes of a warp can share
      // the loop (and read the row coalesced).
      Boost(KnobRole::WarpCooperation, 1, 0);
      Boost(KnobRole::BlockShape, 1, 0);
      Boost(KnobRole::CompilerFlag, 0, 1);
    } else if (F.Streaming) {
      Boost(KnobRole::Vectorization, 1, 0);
      Boost(KnobRole::Coarsening, 1, 0);
      Boost(KnobRole::BlockShape, 1, 0);
      Boost(KnobRole::SharedStaging, 0, 1);
    } else if (F.ReusedLoads) {
      Boost(KnobRole::Coarsening, 1, 0);
      Boost(KnobRole::ReadOnlyCache, 1, 0);
      Boost(KnobRole::SharedStaging, 1, 0);
    }
    // Flags rarely move a kernel much; they stay available.
    Boost(KnobRole::CompilerFlag, 0, 1);
  }

  void applyTransferPriors() {
    // A best configuration of a similar kernel, mapped by knob suffix
    // ("sgemm.register_tile" -> "<this kernel>.register_tile").
    const auto &Dims = Space.dimensions();
    std::vector<PriorResult> Priors = Ctx.Priors;
    std::stable_sort(Priors.begin(), Priors.end(),
                     [](const PriorResult &A, const PriorResult &B) {
                       return A.Speedup > B.Speedup;
                     });
    for (const PriorResult &PR : Priors) {
      Point P = Space.defaultPoint();
      unsigned Mapped = 0;
      for (const auto &[Id, V] : PR.Config) {
        StringRef Suffix = StringRef(Id).starts_with("nvcc.")
                               ? StringRef(Id)
                               : StringRef(Id).split('.').second;
        for (size_t I = 0; I < Dims.size(); ++I) {
          StringRef Mine = StringRef(Dims[I].Knob).starts_with("nvcc.")
                               ? StringRef(Dims[I].Knob)
                               : StringRef(Dims[I].Knob).split('.').second;
          if (Mine != Suffix)
            continue;
          auto It = llvm::find(Dims[I].Values, V);
          if (It == Dims[I].Values.end())
            continue;
          P[I] = unsigned(It - Dims[I].Values.begin());
          ++Mapped;
          auto Arm = Arms.find(moveOf(Dims[I]));
          if (Arm != Arms.end() && PR.Speedup > 1.05)
            Arm->second.Paid += 0.5;
        }
      }
      if (Mapped && Opening.size() < 3)
        Opening.push_back(
            {P,
             formatv("transfer: the best configuration of a similar kernel "
                     "({0:f2}x there)",
                     PR.Speedup)
                 .str(),
             "transfer"});
    }
  }

  double explorationShare() const {
    double Budget = Ctx.Budget ? Ctx.Budget : 100;
    double Spent = std::min(1.0, Order.size() / Budget);
    double Share = 0.15 - 0.1 * Spent;
    // Stuck around one point: look elsewhere more often.
    if (Order.size() > LastImprovement + 12)
      Share = std::min(0.6, 2 * Share);
    return Share;
  }

  /// One planned probe: a move of one knob from the best variant known
  /// when the probe is made (the original until something beats it).
  struct ProbePlan {
    size_t Knob;
    std::string Type;
    /// Values to try, in order, for a knob set absolutely (the first that
    /// differs from the best's and is fresh is taken).
    std::vector<unsigned> Values;
    /// For a block shape with a constant in the program: a step from the
    /// best's value (+1 larger, -1 smaller); Values is then unused.
    int Step = 0;
  };

  /// The probes: one move of each transform, the transforms the priors
  /// favour first, so that every move type has been seen once and the
  /// model learns each transform's main effect. Each is made from the best
  /// variant at the time (ProbePlan): a move from where the search is,
  /// rather than from the original once something has beaten it.
  void planProbes() {
    const auto &Dims = Space.dimensions();
    // Probes compare move types; with one (a recorded space without roles,
    // every knob "other") there is nothing to compare, and the moves
    // themselves teach what that type does.
    std::set<std::string> Types;
    for (const Dimension &D : Dims)
      if (D.Values.size() > 1)
        Types.insert(moveOf(D));
    if (Types.size() < 2)
      return;
    std::vector<std::pair<double, std::string>> Order;
    // The block size first (see below), then by prior mean.
    for (const auto &[Type, A] : Arms)
      Order.push_back(
          {Type == BlockMove ? -2.0 : -A.Paid / (A.Paid + A.Unpaid), Type});
    std::stable_sort(Order.begin(), Order.end());
    Point Default = Space.defaultPoint();
    for (const auto &[Mean, Type] : Order) {
      std::vector<size_t> Mine;
      for (size_t I = 0; I < Dims.size(); ++I)
        if (moveOf(Dims[I]) == Type && Dims[I].Values.size() > 1)
          Mine.push_back(I);
      if (Mine.empty())
        continue;
      for (size_t I : Mine) {
        unsigned N = unsigned(Dims[I].Values.size());
        std::vector<ProbePlan> Plans;
        if (Type == BlockMove && !blockThreads(Dims[I].Values[Default[I]])) {
          // The program chooses its block at run time (default "runtime"):
          // no neighbour to step to; the middle shapes are the usual best.
          ProbePlan Plan{I, Type, {}, 0};
          for (unsigned V : {(N - 1) / 2, (N - 1) / 2 - 1})
            if (V < N)
              Plan.Values.push_back(V);
          Plans.push_back(Plan);
          Plans.push_back(Plan);
        } else if (Type == BlockMove) {
          // The block size decides much of a kernel's time and is the knob
          // every kernel has and the cheapest to change: two probes, one
          // step larger before one step smaller (on 2-D blocks the larger
          // neighbour widens x, so a warp covers more of a row and its
          // accesses coalesce).
          Plans.push_back({I, Type, {}, +1});
          Plans.push_back({I, Type, {}, -1});
        } else {
          // The transform's knob set to a value drawn from its upper half
          // -- the larger settings are the ones that change a kernel's
          // behaviour -- else from any other value.
          ProbePlan Plan{I, Type, {}, 0};
          for (unsigned V = N / 2; V < N; ++V)
            Plan.Values.push_back(V);
          std::shuffle(Plan.Values.begin(), Plan.Values.end(), Rng);
          std::vector<unsigned> Lower;
          for (unsigned V = 0; V < N / 2; ++V)
            Lower.push_back(V);
          std::shuffle(Lower.begin(), Lower.end(), Rng);
          Plan.Values.insert(Plan.Values.end(), Lower.begin(), Lower.end());
          Plans.push_back(std::move(Plan));
        }
        // The favoured transforms open the search; the others are probed
        // between the first moves, so an easy win is taken early.
        for (ProbePlan &Plan : Plans)
          (FirstProbes.size() < 3 ? FirstProbes : LaterProbes)
              .push_back(std::move(Plan));
        // Staging and tiling knobs beyond the first (padding, ...) only
        // matter once the first is set: one probe for those transforms.
        if (Type == roleName(KnobRole::SharedStaging) ||
            Type == roleName(KnobRole::RegisterTiling))
          break;
      }
    }
  }

  /// The probe Plan made from the best variant so far; nullopt when it has
  /// no fresh value to set.
  std::optional<Proposal> probe(const ProbePlan &Plan) {
    const auto &Dims = Space.dimensions();
    const Point Base = Best ? Best->P : Space.defaultPoint();
    const size_t I = Plan.Knob;
    std::vector<unsigned> Values = Plan.Values;
    if (Plan.Step) {
      // One step from the best's value; at the end of the list, the
      // other direction or two steps in (the original code's fallback).
      int N = int(Dims[I].Values.size()), At = int(Base[I]);
      for (int V : {At + Plan.Step, At - Plan.Step, At == 0 ? 2 : N - 3})
        if (V >= 0 && V < N)
          Values.push_back(unsigned(V));
    }
    for (unsigned V : Values) {
      if (V == Base[I])
        continue;
      Point P = Base;
      P[I] = V;
      if (!fresh(P))
        continue;
      Parents[P] = {Base, Plan.Type};
      bool FromOriginal = Base == Space.defaultPoint();
      return Proposal{
          P,
          formatv("probe '{0}': {1} = {2} on {3}, to learn what this kind "
                  "of move does here",
                  Plan.Type, Dims[I].Knob, Dims[I].Values[V],
                  FromOriginal ? "the original"
                               : formatv("the best variant so far ({0:f4} "
                                         "ms)",
                                         *Best->Time)
                                     .str())
              .str(),
          Plan.Type};
    }
    return std::nullopt;
  }

  /// The sweep of the block shapes (see the file comment): every
  /// combination when they fit in half the budget, else each block knob's
  /// values with the others at the original's, then the best of each
  /// together.
  void planBlockSweep() {
    const auto &Dims = Space.dimensions();
    std::vector<size_t> Block;
    double Product = 1, Sum = 0;
    for (size_t I = 0; I < Dims.size(); ++I)
      if (Dims[I].Role == KnobRole::BlockShape && Dims[I].Values.size() > 1) {
        Block.push_back(I);
        Product *= Dims[I].Values.size();
        Sum += Dims[I].Values.size() - 1;
      }
    const double Half = (Ctx.Budget ? Ctx.Budget : 100) / 2.0;
    if (Block.empty() || Sum > Half)
      return;
    const Point Default = Space.defaultPoint();
    auto Add = [&](const Point &P, const std::string &Why) {
      if (P != Default) {
        Parents.try_emplace(P, Default, BlockMove);
        Sweep.push_back({P, Why, BlockMove});
      }
    };
    if (Product - 1 <= Half) {
      std::string Why =
          formatv("sweep of the block shapes ({0} combinations, within half "
                  "the budget), so that the result is never below the best "
                  "block shape alone",
                  Product)
              .str();
      Point P = Default;
      for (size_t I : Block)
        P[I] = 0;
      while (true) { // every combination, in odometer order
        Add(P, Why);
        size_t K = 0;
        for (; K < Block.size(); ++K) {
          if (++P[Block[K]] < Dims[Block[K]].Values.size())
            break;
          P[Block[K]] = 0;
        }
        if (K == Block.size())
          break;
      }
      return;
    }
    for (size_t I : Block)
      for (unsigned V = 0; V < Dims[I].Values.size(); ++V) {
        Point P = Default;
        P[I] = V;
        Add(P, formatv("sweep of '{0}' with the other block shapes as in the "
                       "original ({1} combinations are too many for half "
                       "the budget; each kernel's best is combined after)",
                       Dims[I].Knob, Product)
                   .str());
      }
    SweepDims = Block;
    SweepCombinationDue = true;
  }

  /// The sweep's next point, every other proposal (every one when the
  /// budget left is no more than the sweep), or nullopt.
  std::optional<Proposal> nextSweepPoint() {
    size_t Left =
        Ctx.Budget > Proposed.size() ? Ctx.Budget - Proposed.size() : 0;
    while (!Sweep.empty()) {
      bool Pressed = Ctx.Budget && Left <= Sweep.size() + 1;
      if (!Pressed && !(SweepTurn = !SweepTurn))
        return std::nullopt;
      Proposal P = std::move(Sweep.front());
      Sweep.pop_front();
      if (fresh(P.P))
        return P;
      SweepTurn = !SweepTurn; // already tried: the turn is not used
    }
    if (!SweepCombinationDue)
      return std::nullopt;
    // Each block knob at its best value in the sweep, once every sweep
    // point (and the original) is told.
    const Point Default = Space.defaultPoint();
    Point Combined = Default;
    for (size_t I : SweepDims) {
      const Trial *BestHere = nullptr;
      for (unsigned V = 0; V < Space.dimensions()[I].Values.size(); ++V) {
        Point P = Default;
        P[I] = V;
        auto It = Told.find(P);
        if (It == Told.end()) {
          if (Proposed.count(P))
            return std::nullopt; // still being measured
          continue;              // invalid: never proposed
        }
        if (It->second.ok() &&
            (!BestHere || *It->second.Time < *BestHere->Time))
          BestHere = &It->second;
      }
      if (BestHere)
        Combined[I] = BestHere->P[I];
    }
    SweepCombinationDue = false;
    if (!fresh(Combined))
      return std::nullopt;
    Parents.try_emplace(Combined, Default, BlockMove);
    return Proposal{Combined,
                    "every block knob at its best value in the sweep, "
                    "together",
                    BlockMove};
  }

  /// The best point with the changes of another move that paid applied on
  /// top: two improvements found separately are tried together.
  std::optional<Proposal> combine() {
    if (!Best)
      return std::nullopt;
    const auto &Dims = Space.dimensions();
    for (const auto &[Child, ParentAndType] : Parents) {
      auto C = Told.find(Child);
      auto Pa = Told.find(ParentAndType.first);
      if (C == Told.end() || Pa == Told.end() || !C->second.ok() ||
          !Pa->second.ok() || *C->second.Time >= 0.99 * *Pa->second.Time)
        continue;
      if (CombinedFrom.count(Child) || Child == Best->P)
        continue;
      CombinedFrom.insert(Child);
      Point P = Best->P;
      std::string Changes;
      for (size_t I = 0; I < Dims.size(); ++I)
        if (Child[I] != ParentAndType.first[I] && P[I] != Child[I]) {
          P[I] = Child[I];
          Changes += formatv("{0}{1} = {2}", Changes.empty() ? "" : ", ",
                             Dims[I].Knob, Dims[I].Values[Child[I]])
                         .str();
        }
      if (Changes.empty() || !fresh(P))
        continue;
      Parents[P] = {Best->P, ParentAndType.second};
      return Proposal{
          P,
          formatv("combine: the best variant ({0:f4} ms) with {1}, which "
                  "made another variant {2:f0}% faster",
                  *Best->Time, Changes,
                  100 * (1 - *C->second.Time / *Pa->second.Time))
              .str(),
          ParentAndType.second};
    }
    return std::nullopt;
  }

  void fitModel() {
    if (!ModelStale)
      return;
    ModelStale = false;
    std::vector<std::vector<double>> X;
    std::vector<double> Y;
    for (const Point &P : Order) {
      X.push_back(Space.features(P));
      Y.push_back(cost(Told.at(P)));
    }
    if (X.size() >= 4)
      Model.fit(X, Y, Rng);
    ExploreQueueDrawn = false;
    BestY = 1e300;
    for (double V : Y)
      BestY = std::min(BestY, V);
  }

  /// Whether global exploration trusts the model's expected improvement:
  /// once it has seen more points than the space has knobs (an initial
  /// design of d + 1 points). Before, the forest cannot tell the knobs'
  /// effects apart, and a random point is the better guess.
  bool modelTrusted() const { return Order.size() > Tunable; }

  /// Global exploration: by expected improvement once the model is
  /// trusted (Trusted), at random before.
  std::optional<Proposal> explore(bool Trusted) {
    if (!Trusted) {
      std::optional<Point> P = randomFresh();
      if (!P)
        return std::nullopt;
      return Proposal{*P,
                      "exploring: a random point while the model has "
                      "too little data",
                      ExploreMove};
    }
    // The candidates are drawn and ranked once a fit (what a proposal costs
    // stays flat as the space grows, however many proposals the
    // constraints refuse); each exploration takes the best one left that
    // the refusals so far do not doubt, else the best doubted one.
    std::optional<ModelChoice> Choice;
    for (int Draw = 0; Draw < 2 && !Choice; ++Draw) {
      if (!ExploreQueueDrawn || Draw == 1) {
        ExploreQueue.clear();
        for (const Point &C : candidatePool()) {
          RandomForest::Prediction Pr = Model.predict(Space.features(C));
          ExploreQueue.push_back({expectedImprovement(Pr, BestY), {C, Pr}});
        }
        // Best last; of equals, the pool's first.
        std::reverse(ExploreQueue.begin(), ExploreQueue.end());
        std::stable_sort(
            ExploreQueue.begin(), ExploreQueue.end(),
            [](const auto &A, const auto &B) { return A.first < B.first; });
        ExploreQueueDrawn = true;
      }
      Choice = takeBestQueued();
    }
    if (!Choice) {
      // Sampling candidates misses what is left: randomFresh lists it.
      std::optional<Point> P = randomFresh();
      if (!P)
        return std::nullopt;
      return Proposal{*P,
                      "exploring: a random point (the model's candidates "
                      "are all used)",
                      ExploreMove};
    }
    double Pred = Choice->Predicted.Mean;
    return Proposal{Choice->P,
                    formatv("exploring: the point of highest expected "
                            "improvement anywhere (predicted {0:f4} ms)",
                            std::exp(Pred))
                        .str(),
                    ExploreMove};
  }

  /// The best queued candidate the refusals do not doubt, else the best
  /// fresh one; taken off the queue.
  std::optional<ModelChoice> takeBestQueued() {
    for (bool Doubted : {false, true})
      for (size_t I = ExploreQueue.size(); I-- > 0;) {
        const Point &P = ExploreQueue[I].second.P;
        if (Doubted ? fresh(P) : promising(P)) {
          ModelChoice C = std::move(ExploreQueue[I].second);
          ExploreQueue.erase(ExploreQueue.begin() + I);
          return C;
        }
      }
    return std::nullopt;
  }

  /// One move from one of the best points.
  std::optional<Proposal> move() {
    std::vector<const Trial *> R = ranked();
    if (R.empty())
      return std::nullopt;
    std::uniform_real_distribution<double> U(0, 1);
    size_t ParentIndex = 0;
    if (R.size() > 1 && U(Rng) > 0.8)
      ParentIndex = std::uniform_int_distribution<size_t>(
          1, std::min<size_t>(4, R.size() - 1))(Rng);
    const Trial &Parent = *R[ParentIndex];

    // Thompson sampling over the move types that still have fresh children
    // of this parent.
    const auto &Dims = Space.dimensions();
    // Children: one knob changed (the neighbourhood of the parent is
    // scanned before anything farther), then, once a move type has no such
    // child left, that knob plus one other (coupled knobs: a tile with a
    // block shape, register tiling with staging). Only children the
    // refusals so far do not doubt (ValidityModel); when every child is
    // doubted, the agent explores instead.
    std::map<std::string, std::vector<Point>> Children, Farther;
    for (size_t I = 0; I < Dims.size(); ++I)
      for (unsigned V = 0; V < Dims[I].Values.size(); ++V) {
        if (V == Parent.P[I])
          continue;
        Point C = Parent.P;
        C[I] = V;
        if (promising(C))
          Children[moveOf(Dims[I])].push_back(C);
        for (unsigned Extra = 0; Extra < 3; ++Extra) {
          size_t J =
              std::uniform_int_distribution<size_t>(0, Dims.size() - 1)(Rng);
          if (J == I || Dims[J].Values.size() < 2)
            continue;
          Point D = C;
          D[J] = std::uniform_int_distribution<unsigned>(
              0, unsigned(Dims[J].Values.size()) - 1)(Rng);
          if (D != C && promising(D))
            Farther[moveOf(Dims[I])].push_back(std::move(D));
        }
      }
    for (auto &[Type, Cands] : Farther)
      if (Children[Type].empty())
        Children[Type] = std::move(Cands);
    std::string Chosen;
    double ChosenDraw = -1;
    auto Draw = [&](Arm A) {
      std::gamma_distribution<double> GA(A.Paid, 1), GB(A.Unpaid, 1);
      double X = GA(Rng), Y = GB(Rng);
      return X / (X + Y);
    };
    // Looking anywhere (by expected improvement) is a move type too: where
    // the best's neighbours pay less often than points elsewhere -- a
    // rugged space, or a best found early in a space where much is good --
    // the draw favours it.
    const double ExploreDraw = Draw(Arms[ExploreMove]);
    for (auto &[Type, Cands] : Children) {
      if (Cands.empty())
        continue;
      Arm A = Arms[Type];
      A.Paid += launchBoundsHint(Type);
      double D = Draw(A);
      if (D > ChosenDraw) {
        ChosenDraw = D;
        Chosen = Type;
      }
    }
    if (Chosen.empty())
      return std::nullopt;
    if (ExploreDraw > ChosenDraw)
      return explore(modelTrusted());

    // Chosen has children (the draw skipped empty ones), so there is a pick.
    std::optional<ModelChoice> Pick =
        mostPromising(Model, Children[Chosen], BestY);
    const Point &Choice = Pick->P;
    double Pred = Pick->Predicted.Mean;
    Parents[Choice] = {Parent.P, Chosen};
    std::string Changes;
    for (size_t I = 0; I < Dims.size(); ++I)
      if (Choice[I] != Parent.P[I])
        Changes += formatv("{0}{1} {2} -> {3}", Changes.empty() ? "" : ", ",
                           Dims[I].Knob, Dims[I].Values[Parent.P[I]],
                           Dims[I].Values[Choice[I]])
                       .str();
    const Arm &A = Arms[Chosen];
    return Proposal{
        Choice,
        formatv("move '{0}' from {1} ({2:f4} ms): {3}; this move "
                "paid {4} of {5} times here; the model predicts {6:f4} ms",
                Chosen,
                ParentIndex == 0 ? "the best variant" : "a runner-up variant",
                *Parent.Time,
                Changes, A.Won, A.Tried, std::exp(Pred))
            .str(),
        Chosen};
  }

  /// Many registers or low occupancy on the best variant: limiting
  /// registers is worth a try.
  double launchBoundsHint(StringRef Type) const {
    if ((Type != roleName(KnobRole::LaunchBounds) &&
         Type != roleName(KnobRole::RegisterCap)) ||
        !Best)
      return 0;
    double H = 0;
    if (Best->Registers && *Best->Registers >= 96)
      H += 1;
    if (Best->Occupancy && *Best->Occupancy >= 0 && *Best->Occupancy < 0.3)
      H += 1;
    return H;
  }

  std::map<std::string, Arm> Arms;
  /// Global proposals not yet told, with the best time when each was made.
  std::map<Point, double> ExploreIncumbent;
  /// Knobs with more than one value.
  size_t Tunable = 0;
  std::map<Point, std::pair<Point, std::string>> Parents;
  std::deque<Proposal> Opening;
  /// Random points still to come in the opening, after the first
  /// TransferredInOpening entries of Opening (configurations transferred
  /// from similar kernels) have been taken: two, or an initial design
  /// where there are no probes.
  unsigned OpeningRandomLeft = 2;
  /// Seeded like every strategy's generator and used only for those
  /// points: with a given seed they are the first points random search
  /// measures, whatever the agent drew before (the strategies are compared
  /// on common random numbers).
  std::mt19937_64 OpeningRng{Ctx.Seed};
  size_t TransferredInOpening = 0, OpeningTaken = 0;
  std::deque<ProbePlan> FirstProbes, LaterProbes;
  std::deque<Proposal> Sweep;    ///< planBlockSweep's points not yet proposed
  bool SweepTurn = false;        ///< whose turn: the sweep's or the others'
  std::vector<size_t> SweepDims; ///< knobs swept one at a time
  bool SweepCombinationDue = false;
  std::set<Point> CombinedFrom;
  size_t LastImprovement = 0;
  RandomForest Model;
  bool ModelStale = true;
  /// The last fit's candidates with their expected improvement, best last.
  std::vector<std::pair<double, ModelChoice>> ExploreQueue;
  bool ExploreQueueDrawn = false;
  double BestY = 1e300;
};

} // namespace

std::unique_ptr<SearchStrategy> makeAgentStrategy(const StrategyContext &Ctx) {
  return std::make_unique<Agent>(Ctx);
}

} // namespace cro
