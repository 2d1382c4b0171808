#include "cro/Analysis/ModelBuilder.h"
#include "cro/Analysis/BlockIndexReads.h"
#include "cro/Analysis/BlockSum.h"
#include "cro/Analysis/BodyAnalysis.h"
#include "cro/Analysis/GridStride.h"
#include "cro/Analysis/KernelCollector.h"
#include "cro/Analysis/LaunchAnalysis.h"
#include "cro/Analysis/LoopShape.h"
#include "cro/Analysis/SerialScan.h"
#include "cro/Analysis/ThreadMapping.h"
#include "clang/Lex/Preprocessor.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include <algorithm>

using namespace clang;
using namespace llvm;

namespace cro {

namespace {

/// What every model says of its file: the name it goes by, the architecture
/// and toolkit of the parse.
KernelModel modelOf(const ParsedFile &PF, StringRef DisplayName) {
  KernelModel M;
  M.File = DisplayName.str();
  M.GpuArch = PF.GpuArch;
  M.CudaRoot = PF.Cuda.Root;
  M.CudaVersion = PF.Cuda.Version;
  return M;
}

} // namespace

KernelModel buildKernelModel(const ParsedFile &PF, StringRef DisplayName) {
  KernelModel M = modelOf(PF, DisplayName);

  // Every offset of the model indexes the program text of the user's
  // files; the device parse's files come first (both parses enter the same
  // files in the same order unless `__CUDA_ARCH__` selects includes).
  SourceText DeviceText(PF.Device->getASTContext(), DisplayName.str(),
                        PF.Cuda.Root, &M.Program);
  SourceText HostText(PF.Host->getASTContext(), DisplayName.str(), PF.Cuda.Root,
                      &M.Program);
  DeviceText.addUserFilesToProgram(
      PF.Device->getPreprocessor().getPreprocessingRecord());
  HostText.addUserFilesToProgram(
      PF.Host->getPreprocessor().getPreprocessingRecord());

  struct Entry {
    KernelInfo Info;
    const FunctionDecl *Decl;
    const SourceText *Text;
  };
  std::vector<Entry> Entries;
  auto Find = [&](const KernelInfo &K) -> Entry * {
    for (Entry &E : Entries)
      if (E.Info.Name == K.Name && E.Info.Location == K.Location)
        return &E;
    return nullptr;
  };

  for (auto [Ctx, Text, Side] :
       {std::make_tuple(&PF.Device->getASTContext(), &DeviceText, "device"),
        std::make_tuple(&PF.Host->getASTContext(), &HostText, "host")}) {
    for (const FunctionDecl *FD : collectKernelDefinitions(*Ctx, *Text)) {
      KernelInfo K;
      describeKernelSignature(FD, *Text, K);
      if (Entry *E = Find(K)) {
        E->Info.Sides.push_back(Side);
        continue;
      }
      K.Sides.push_back(Side);
      // Kernel bodies come from the device parse; a kernel only the host
      // parse sees (hidden behind #ifndef __CUDA_ARCH__) is read from there.
      analyzeKernelBody(FD, *Text, K);
      K.ThreadDimsUsed = threadDimsUsed(FD);
      Entries.push_back({std::move(K), FD, Text});
    }
  }

  std::vector<LaunchSite> Launches =
      collectLaunches(PF.Host->getASTContext(), HostText);
  std::map<std::string, std::vector<std::string>> Escapes =
      collectKernelEscapes(PF.Host->getASTContext(), HostText, Launches);
  for (Entry &E : Entries)
    if (auto It = Escapes.find(E.Info.Location); It != Escapes.end())
      E.Info.AddressTaken = It->second;
  for (LaunchSite &L : Launches) {
    for (Entry &E : Entries) {
      if (E.Info.Location == L.KernelLocation ||
          (L.KernelLocation.empty() && E.Info.Name == L.Kernel)) {
        E.Info.Launches.push_back(L);
        break;
      }
    }
  }

  for (Entry &E : Entries) {
    // The thread mapping needs the launches: `blockIdx.x * TILE +
    // threadIdx.x` is the global index only when TILE is the block extent;
    // and the loops' shapes: the element a reduction loop adds to.
    analyzeLoopShapes(E.Decl, *E.Text, E.Info);
    analyzeThreadMapping(E.Decl, *E.Text, E.Info);
    analyzeGridStride(E.Decl, *E.Text, E.Info);
    analyzeBlockIndexReads(E.Decl, *E.Text, E.Info);
    analyzeBlockSum(E.Decl, *E.Text, E.Info);
    analyzeSerialScan(E.Decl, *E.Text, E.Info);
    analyzeBlockCoupling(E.Decl, *E.Text, E.Info);
    std::sort(E.Info.Sides.begin(), E.Info.Sides.end(),
              [](const std::string &A, const std::string &B) {
                return A == "host" && B != "host";
              });
  }
  std::stable_sort(Entries.begin(), Entries.end(),
                   [](const Entry &A, const Entry &B) {
                     return A.Info.Span.BeginOffset < B.Info.Span.BeginOffset;
                   });
  // Overloads share a name: their knobs are told apart by the signature.
  std::map<std::string, int> SameName;
  for (const Entry &E : Entries)
    ++SameName[E.Info.Name];
  for (Entry &E : Entries) {
    if (SameName[E.Info.Name] > 1)
      E.Info.Id = E.Info.Name + "(" + E.Info.Signature + ")";
    M.Kernels.push_back(std::move(E.Info));
  }
  return M;
}

KernelModel buildUnparsedModel(const ParsedFile &PF, StringRef DisplayName) {
  KernelModel M = modelOf(PF, DisplayName);
  M.Unparsed = PF.FirstError.empty()
                   ? "Clang could not parse '" + DisplayName.str() + "'"
                   : PF.FirstError;
  // The files the preprocessor entered are known even when Sema failed;
  // no declaration of an incomplete AST is read.
  for (const std::unique_ptr<ASTUnit> *AST : {&PF.Host, &PF.Device}) {
    if (!*AST)
      continue;
    SourceText Text((*AST)->getASTContext(), DisplayName.str(), PF.Cuda.Root,
                    &M.Program);
    Text.addUserFilesToProgram(
        (*AST)->getPreprocessor().getPreprocessingRecord());
  }
  if (M.Program.files().empty()) {
    // Not even the preprocessor ran (a fatal error): the main file alone.
    if (ErrorOr<std::unique_ptr<MemoryBuffer>> B =
            MemoryBuffer::getFile(PF.MainFile)) {
      SmallString<256> Key(PF.MainFile);
      if (sys::fs::real_path(PF.MainFile, Key))
        Key = PF.MainFile;
      sys::path::remove_dots(Key, /*remove_dot_dot=*/true);
      M.Program.addFile(Key, DisplayName, sys::path::filename(Key),
                        (*B)->getBuffer());
    }
  }
  return M;
}

} // namespace cro
