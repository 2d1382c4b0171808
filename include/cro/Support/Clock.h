//===- Clock.h - how the tool times its phases
//-----------------------------===//
#ifndef CRO_SUPPORT_CLOCK_H
#define CRO_SUPPORT_CLOCK_H

#include <chrono>

namespace cro {

/// Every phase the tool times (runs, compiles, the search, progress events)
/// on the one monotonic clock.
using Clock = std::chrono::steady_clock;

/// Seconds elapsed since T.
inline double secondsSince(Clock::time_point T) {
  return std::chrono::duration<double>(Clock::now() - T).count();
}

} // namespace cro

#endif
