//===- CaptureChecksum.h - the checksum of a captured allocation ----------===//
//
// XXH64 (seed 0) of a capture's bytes. The measurement library computes it
// for every capture, so that the tool can tell bit-identical outputs apart
// from different ones without reading gigabytes of files back, and a
// variant's run need not write a capture that is identical to the
// original's. It is the standard XXH64, so the tool side can check it with
// llvm::xxHash64 (test/unit/CaptureChecksumTest.cpp); the library cannot link
// LLVM, and this header is folded into its one-file source when the tool
// embeds that source (lib/Measure/CMakeLists.txt).
//
// Self-contained on purpose: no LLVM, no CUDA, only the C++ standard
// library.
//
//===----------------------------------------------------------------------===//
#ifndef CRO_MEASURE_INJECTION_CAPTURECHECKSUM_H
#define CRO_MEASURE_INJECTION_CAPTURECHECKSUM_H

#include <cstddef>
#include <cstdint>
#include <cstring>

namespace cro_checksum {

constexpr uint64_t Prime1 = 0x9E3779B185EBCA87ULL;
constexpr uint64_t Prime2 = 0xC2B2AE3D27D4EB4FULL;
constexpr uint64_t Prime3 = 0x165667B19E3779F9ULL;
constexpr uint64_t Prime4 = 0x85EBCA77C2B2AE63ULL;
constexpr uint64_t Prime5 = 0x27D4EB2F165667C5ULL;

inline uint64_t rotl(uint64_t X, int R) { return (X << R) | (X >> (64 - R)); }

// Little-endian loads through memcpy: captures have any alignment and the
// hosts the tool supports are little-endian (x86-64, aarch64).
inline uint64_t read64(const unsigned char *P) {
  uint64_t V;
  std::memcpy(&V, P, 8);
  return V;
}

inline uint32_t read32(const unsigned char *P) {
  uint32_t V;
  std::memcpy(&V, P, 4);
  return V;
}

inline uint64_t round(uint64_t Acc, uint64_t Input) {
  Acc += Input * Prime2;
  Acc = rotl(Acc, 31);
  return Acc * Prime1;
}

inline uint64_t mergeRound(uint64_t Acc, uint64_t Val) {
  Acc ^= round(0, Val);
  return Acc * Prime1 + Prime4;
}

/// XXH64 of Size bytes at Data, seed 0.
inline uint64_t xxh64(const void *Data, size_t Size) {
  const unsigned char *P = static_cast<const unsigned char *>(Data);
  const unsigned char *End = P + Size;
  uint64_t H;
  if (Size >= 32) {
    uint64_t V1 = Prime1 + Prime2, V2 = Prime2, V3 = 0, V4 = 0 - Prime1;
    const unsigned char *Limit = End - 32;
    do {
      V1 = round(V1, read64(P));
      V2 = round(V2, read64(P + 8));
      V3 = round(V3, read64(P + 16));
      V4 = round(V4, read64(P + 24));
      P += 32;
    } while (P <= Limit);
    H = rotl(V1, 1) + rotl(V2, 7) + rotl(V3, 12) + rotl(V4, 18);
    H = mergeRound(H, V1);
    H = mergeRound(H, V2);
    H = mergeRound(H, V3);
    H = mergeRound(H, V4);
  } else {
    H = Prime5;
  }
  H += uint64_t(Size);
  for (; P + 8 <= End; P += 8) {
    H ^= round(0, read64(P));
    H = rotl(H, 27) * Prime1 + Prime4;
  }
  if (P + 4 <= End) {
    H ^= uint64_t(read32(P)) * Prime1;
    H = rotl(H, 23) * Prime2 + Prime3;
    P += 4;
  }
  for (; P < End; ++P) {
    H ^= uint64_t(*P) * Prime5;
    H = rotl(H, 11) * Prime1;
  }
  H ^= H >> 33;
  H *= Prime2;
  H ^= H >> 29;
  H *= Prime3;
  H ^= H >> 32;
  return H;
}

/// The checksum as the library reports it: 16 lower-case hex digits.
inline void toHex(uint64_t V, char Out[17]) {
  static const char Digits[] = "0123456789abcdef";
  for (int I = 15; I >= 0; --I, V >>= 4)
    Out[I] = Digits[V & 15];
  Out[16] = '\0';
}

} // namespace cro_checksum

#endif
