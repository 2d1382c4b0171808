#include "cro/Analysis/ModelJSON.h"

using namespace llvm;

namespace cro {

namespace {

json::Value toJSON(const TemplateParamInfo &T);
json::Value toJSON(const ValueOrigin &V);
json::Value toJSON(const SourceSpan &S);
json::Value toJSON(const KernelInfo &K);
json::Value toJSON(const ThreadMapping &M);
json::Value toJSON(const LaunchSite &L);
json::Value toJSON(const ParamInfo &P);
json::Value toJSON(const LoopInfo &L);
json::Value toJSON(const AccessInfo &A);
json::Value toJSON(const SharedArrayInfo &S);
json::Value toJSON(const BlockCoupling &C);
json::Value toJSON(const AtomicUpdateInfo &A);
json::Value argsJSON(const std::vector<LaunchSite::Argument> &Args);
json::Value redeclsJSON(const std::vector<std::vector<ParamInfo>> &R);

json::Value optInt(const std::optional<int64_t> &V) {
  return V ? json::Value(*V) : json::Value(nullptr);
}

json::Value strOrNull(const std::string &S) {
  return S.empty() ? json::Value(nullptr) : json::Value(S);
}

json::Array strings(const std::vector<std::string> &V) {
  json::Array A;
  for (const std::string &S : V)
    A.push_back(S);
  return A;
}

json::Value toJSON(const SourceSpan &S) {
  return json::Object{{"begin", S.Begin},
                      {"end", S.End},
                      {"begin_offset", S.BeginOffset},
                      {"end_offset", S.EndOffset}};
}

json::Value toJSON(const ValueOrigin &V) {
  json::Object O{
      {"text", V.Text}, {"kind", V.Kind}, {"value", optInt(V.Value)}};
  if (!V.Symbol.empty())
    O["symbol"] = V.Symbol;
  if (!V.QualifiedSymbol.empty() && V.QualifiedSymbol != V.Symbol)
    O["qualified_symbol"] = V.QualifiedSymbol;
  if (V.DefinedOutsideMainFile)
    O["defined_outside_main_file"] = true;
  if (!V.Via.empty())
    O["via"] = strings(V.Via);
  if (!V.ReadElsewhere.empty())
    O["read_elsewhere"] = V.ReadElsewhere;
  if (!V.InstantiatedValues.empty()) {
    json::Array A;
    for (int64_t X : V.InstantiatedValues)
      A.push_back(X);
    O["instantiated_values"] = std::move(A);
  }
  if (!V.DefinitionLine.Begin.empty()) {
    O["definition_line"] = toJSON(V.DefinitionLine);
    O["local_definition"] = V.LocalDefinition;
    if (!V.Type.empty())
      O["type"] = V.Type;
  }
  if (!V.Span.Begin.empty()) {
    O["span"] = toJSON(V.Span);
    O["resolved_span"] = toJSON(V.ResolvedSpan);
    O["stable_at_launch"] = V.StableAtLaunch;
  }
  if (V.Derived)
    O["derived"] =
        json::Object{{"form", V.Derived->Form},
                     {"extent", V.Derived->Extent},
                     {"extent_value", optInt(V.Derived->ExtentValue)},
                     {"block_term", V.Derived->BlockTerm},
                     {"block_symbol", strOrNull(V.Derived->BlockSymbol)},
                     {"block_multiple", V.Derived->BlockMultiple},
                     {"block_fraction", V.Derived->BlockFraction},
                     {"block_dim", strOrNull(V.Derived->BlockDim)}};
  if (V.Derived && V.Derived->RoundUp.EndOffset > V.Derived->RoundUp.BeginOffset)
    O["derived"].getAsObject()->insert({"round_up", toJSON(V.Derived->RoundUp)});
  return O;
}

json::Value toJSON(const LaunchDim3 &D) {
  json::Array Dims;
  for (const ValueOrigin &V : D.Dims)
    Dims.push_back(toJSON(V));
  json::Object O{{"text", D.Text}, {"form", D.Form}, {"dims", std::move(Dims)}};
  if (!D.Span.Begin.empty())
    O["span"] = toJSON(D.Span);
  if (!D.Variable.empty())
    O["variable"] = D.Variable;
  return O;
}

json::Value toJSON(const LaunchSite &L) {
  return json::Object{{"location", L.Location},
                      {"in_main_file", L.InMainFile},
                      {"span", toJSON(L.Span)},
                      {"kernel", L.Kernel},
                      {"syntax", L.Syntax},
                      {"caller", L.Caller},
                      {"template_args", strings(L.TemplateArgs)},
                      {"grid", toJSON(L.Grid)},
                      {"block", toJSON(L.Block)},
                      {"shared_mem", toJSON(L.SharedMem)},
                      {"stream", strOrNull(L.Stream)},
                      {"args", argsJSON(L.Args)},
                      {"caller_calls",
                       [&] {
                         json::Array Calls;
                         for (const auto &C : L.CallerCalls)
                           Calls.push_back(argsJSON(C));
                         return Calls;
                       }()},
                      {"loop_depth", L.LoopDepth},
                      {"in_loop", L.LoopDepth > 0},
                      {"in_template", L.InTemplate}};
}

json::Value toJSON(const PointeeConstEdit &E) {
  if (E.InsertAt)
    return json::Object{{"insert_at", int64_t(E.InsertAt)}};
  return json::Object{{"replace", toJSON(E.Replace)}, {"with", E.With}};
}

json::Value toJSON(const ParamInfo &P) {
  json::Object O{{"name", P.Name},
                 {"type", P.Type},
                 {"pointer", P.IsPointer},
                 {"const", P.IsConst},
                 {"restrict", P.IsRestrict}};
  O["span"] = toJSON(P.Span);
  O["name_offset"] = P.NameOffset;
  if (P.IsPointer) {
    if (P.ConstEdit.possible())
      O["const_edit"] = toJSON(P.ConstEdit);
    O["aliased_by_non_const"] = P.AliasedByNonConst;
    if (!P.NonConstCopies.empty()) {
      json::Array Copies;
      for (const ParamInfo::NonConstCopy &C : P.NonConstCopies)
        Copies.push_back(json::Object{
            {"name", C.Name},
            {"location", C.Location},
            {"const_edit", C.ConstEdit.possible() ? toJSON(C.ConstEdit)
                                                  : json::Value(nullptr)}});
      O["non_const_copies"] = std::move(Copies);
    }
    if (!P.ModifiedAt.empty())
      O["modified_at"] = P.ModifiedAt;
    O["uses"] = int64_t(P.Uses);
    O["pointee_type"] = P.PointeeType;
    O["canonical_pointee_type"] = P.CanonicalPointeeType;
    if (!P.InstantiatedPointeeTypes.empty())
      O["instantiated_pointee_types"] = json::Array(
          std::vector<json::Value>(P.InstantiatedPointeeTypes.begin(),
                                   P.InstantiatedPointeeTypes.end()));
    O["pointee_const"] = P.PointeeConst;
    O["access"] = P.Access;
    O["atomic"] = P.Atomic;
    if (!P.EscapeReason.empty())
      O["escape_reason"] = P.EscapeReason;
  }
  return O;
}

json::Value toJSON(const LoopInfo &L) {
  return json::Object{
      {"id", L.Id},
      {"kind", L.Kind},
      {"location", L.Location},
      {"parent", strOrNull(L.Parent)},
      {"depth", L.Depth},
      {"induction_var", strOrNull(L.InductionVar)},
      {"init", strOrNull(L.Init)},
      {"init_form", L.InitForm ? toJSON(*L.InitForm) : json::Value(nullptr)},
      {"bound", strOrNull(L.Bound)},
      {"compare", strOrNull(L.Compare)},
      {"step", strOrNull(L.Step)},
      {"step_kind", strOrNull(L.StepKind)},
      {"trip_count", optInt(L.TripCount)},
      {"step_value", optInt(L.StepValue)},
      {"unroll_pragma", L.HasUnrollPragma},
      {"contains_sync", L.ContainsSync},
      {"contains_communication", L.ContainsCommunication},
      {"unroll_value", strOrNull(L.UnrollValue)},
      {"pragma_span",
       L.HasUnrollPragma ? toJSON(L.PragmaSpan) : json::Value(nullptr)},
      {"span", toJSON(L.Span)},
      {"indent", L.Indent},
      {"in_macro", L.InMacro},
      {"in_block", L.InBlock},
      {"strip_mine_refusal", strOrNull(L.StripMineRefusal)},
      {"inner_loop", strOrNull(L.InnerLoop)},
      {"interchange_refusal", strOrNull(L.InterchangeRefusal)},
      {"interchange_aliasing", strOrNull(L.InterchangeAliasing)},
      {"body_exit", strOrNull(L.BodyExit)},
      {"body_changes", strings(L.BodyChanges)},
      {"accumulator", strOrNull(L.Accumulator)},
      {"accumulator_type", strOrNull(L.AccumulatorType)},
      // "+" for a sum (into a variable or an element), else the maximum or
      // minimum function; null when the loop reduces into nothing.
      {"accumulator_combine",
       L.Accumulator.empty() && L.AccumulatedElement.empty()
           ? json::Value(nullptr)
           : json::Value(L.AccumulatorCombine.empty() ? "+"
                                                      : L.AccumulatorCombine)},
      {"accumulated_element", strOrNull(L.AccumulatedElement)},
      {"step_statement", L.StepStatement.EndOffset > L.StepStatement.BeginOffset
                             ? toJSON(L.StepStatement)
                             : json::Value(nullptr)}};
}

json::Value toJSON(const IndexInfo &I) {
  json::Object O{{"text", I.Text}, {"affine", I.Affine}};
  if (I.Affine)
    O["form"] = toJSON(I.Form);
  else
    O["reason"] = I.NonAffineReason;
  O["locals"] = json::Array(I.Locals);
  O["locals_in_macro"] = I.LocalsInMacro;
  O["bits"] = I.Bits;
  O["reads_thread_position"] = I.ReadsThreadPosition;
  return O;
}

json::Value toJSON(const AccessInfo &A) {
  json::Array Idx;
  for (const IndexInfo &I : A.Indices)
    Idx.push_back(toJSON(I));
  return json::Object{
      {"location", A.Location},
      {"base", A.Base},
      {"space", A.Space},
      {"mode", A.Mode},
      {"element_type", A.ElementType},
      {"canonical_element_type", A.CanonicalElementType},
      {"element_bytes", int64_t(A.ElementBytes)},
      {"indices", std::move(Idx)},
      {"loop", strOrNull(A.Loop)},
      {"skippable_by", A.SkippableBy.BeginOffset == A.SkippableBy.EndOffset
                           ? json::Value(nullptr)
                           : json::Value(A.SkippableBy.Begin)}};
}

json::Value toJSON(const SharedArrayInfo &S) {
  json::Array Vals;
  for (const std::optional<int64_t> &V : S.ExtentValues)
    Vals.push_back(optInt(V));
  return json::Object{{"name", S.Name},
                      {"location", S.Location},
                      {"element_type", S.ElementType},
                      {"extents", strings(S.Extents)},
                      {"extent_values", std::move(Vals)},
                      {"dynamic", S.Dynamic}};
}

json::Value toJSON(const AtomicUpdateInfo &A) {
  return json::Object{
      {"function", A.Function},
      {"location", A.Location},
      {"base", strOrNull(A.Base)},
      {"element_type", A.ElementType},
      {"integer_element", A.IntegerElement},
      {"result_used", A.ResultUsed},
      {"index_bound", optInt(A.IndexBound)},
      {"index_bound_why", strOrNull(A.IndexBoundWhy)},
      {"value_type", A.ValueType},
      {"uniform_target_why", strOrNull(A.UniformTargetWhy)},
      {"launch_uniform_target_why", strOrNull(A.LaunchUniformTargetWhy)},
      {"target_param", strOrNull(A.TargetParam)},
      {"fixed_thread_dims", strings(A.FixedThreadDims)}};
}

json::Value toJSON(const BlockCoupling &C) {
  return json::Object{{"symbol", C.Symbol},
                      {"kind", C.Kind},
                      {"location", C.Location},
                      {"context", C.Context},
                      {"value", optInt(C.Value)}};
}

json::Value argsJSON(const std::vector<LaunchSite::Argument> &Args) {
  json::Array A;
  for (const LaunchSite::Argument &X : Args)
    A.push_back(json::Object{{"text", X.Text},
                             {"base_variable", strOrNull(X.BaseVariable)},
                             {"integer_variable", strOrNull(X.IntegerVariable)},
                             {"root", strOrNull(X.Root)},
                             {"caller_param", X.CallerParam >= 0
                                                  ? json::Value(X.CallerParam)
                                                  : json::Value(nullptr)}});
  return A;
}

template <typename T> json::Array arrayOf(const std::vector<T> &V) {
  json::Array A;
  for (const T &X : V)
    A.push_back(toJSON(X));
  return A;
}

json::Value toJSON(const TemplateParamInfo &T) {
  json::Object O{{"name", T.Name}, {"kind", T.Kind}};
  if (!T.Type.empty())
    O["type"] = T.Type;
  if (!T.Default.empty())
    O["default"] = T.Default;
  return O;
}

json::Value redeclsJSON(const std::vector<std::vector<ParamInfo>> &R) {
  json::Array A;
  for (const std::vector<ParamInfo> &Params : R)
    A.push_back(json::Object{{"params", arrayOf(Params)}});
  return A;
}

json::Value toJSON(const ThreadMapping &M) {
  if (!M.Reason.empty())
    return json::Object{{"recognized", false}, {"reason", M.Reason}};
  json::Array Vars;
  for (const ThreadIndexVar &V : M.IndexVars)
    Vars.push_back(json::Object{{"name", V.Name},
                                {"type", V.Type},
                                {"dim", V.Dim},
                                {"bits", V.Bits},
                                {"decl", toJSON(V.Decl)}});
  json::Array Returns;
  for (const ThreadMapping::Return &R : M.Returns)
    Returns.push_back(
        json::Object{{"span", toJSON(R.Span)}, {"in_loop", R.InLoop}});
  json::Object Bounds;
  for (const auto &[Var, Bound] : M.UpperBounds)
    Bounds[Var] = Bound;
  json::Object Lower;
  for (const auto &[Var, Bound] : M.LowerBounds)
    Lower[Var] = Bound;
  json::Object BoundForms;
  for (const auto &[Var, F] : M.UpperBoundForms)
    BoundForms[Var] = json::Object{{"symbol", strOrNull(F.Symbol)},
                                   {"offset", F.Offset}};
  json::Value Reduction = nullptr;
  if (const std::optional<ReductionLoopInfo> &R = M.Reduction) {
    json::Array Before;
    for (const LocalDeclInfo &D : R->Before)
      Before.push_back(json::Object{{"name", D.Name},
                                    {"type", D.Type},
                                    {"init", D.Init},
                                    {"pure", D.Pure}});
    Reduction =
        json::Object{{"loop", R->Loop},
                     {"var", R->Var},
                     {"begin", R->Begin},
                     {"end", R->End},
                     {"before", std::move(Before)},
                     {"before_effects", int64_t(R->BeforeEffects.size())},
                     {"element", strOrNull(R->Element)},
                     {"refusal", strOrNull(R->Refusal)}};
  }
  json::Array Leading;
  for (const ThreadMapping::LeadingDecl &D : M.LeadingDecls)
    Leading.push_back(json::Object{{"name", D.Name},
                                   {"location", D.Location},
                                   {"per_output", strOrNull(D.PerOutput)},
                                   {"reset", strOrNull(D.Reset)},
                                   {"no_reset", D.NoReset}});
  json::Array Bounded;
  for (const ThreadMapping::BoundedRead &B : M.BoundedReads)
    Bounded.push_back(
        json::Object{{"row", strOrNull(B.Row)},
                     {"col", B.Col},
                     {"stride", B.Stride.str()},
                     {"row_offsets", json::Array{B.RowLo, B.RowHi}},
                     {"col_offsets", json::Array{B.ColLo, B.ColHi}},
                     {"reads_centre", B.ReadsCentre}});
  json::Array Unbounded;
  for (const auto &[Offset, Why] : M.UnboundedChoices)
    Unbounded.push_back(json::Object{{"offset", Offset}, {"reason", Why}});
  return json::Object{{"recognized", true},
                      {"index_vars", std::move(Vars)},
                      {"guard", M.GuardKind},
                      {"guard_condition", strOrNull(M.GuardCondition)},
                      {"upper_bounds", std::move(Bounds)},
                      {"guard_is_box", M.GuardIsBox},
                      {"lower_bounds", std::move(Lower)},
                      {"guard_is_range", M.GuardIsRange},
                      {"guard_without_side_effects", M.GuardWithoutSideEffects},
                      {"upper_bound_forms", std::move(BoundForms)},
                      {"work", toJSON(M.Work)},
                      {"leading_decls", std::move(Leading)},
                      {"guard_reason", strOrNull(M.GuardReason)},
                      {"returns", std::move(Returns)},
                      {"stray_builtins", strings(M.StrayBuiltins)},
                      {"bounded_reads", std::move(Bounded)},
                      {"unbounded_choices", std::move(Unbounded)},
                      {"ambiguous_names",
                       json::Array(std::vector<std::string>(
                           M.AmbiguousNames.begin(), M.AmbiguousNames.end()))},
                      {"outside_writes", strings(M.OutsideWrites)},
                      {"conditionals", strings(M.Conditionals)},
                      {"reduction", std::move(Reduction)},
                      {"sequential_loops", strings(M.SequentialLoops)}};
}

json::Value blockReadsJSON(const BlockIndexReads &R) {
  json::Object Dims;
  for (const auto &[Name, D] : R.Dims)
    Dims[Name] = json::Object{
        {"block_idx", (int64_t)D.BlockIdx.size()},
        {"grid_dim", (int64_t)D.GridDim.size()},
        {"obstacle", D.Obstacle.empty() ? json::Value(nullptr)
                                        : json::Value(D.Obstacle)}};
  json::Array Returns;
  for (const BlockIndexReads::Return &Ret : R.Returns)
    Returns.push_back(
        json::Object{{"location", Ret.Span.Begin}, {"in_loop", Ret.InLoop}});
  return json::Object{{"dims", std::move(Dims)},
                      {"returns", std::move(Returns)}};
}

json::Value blockSumJSON(const BlockSumInfo &B) {
  if (!B.Why.empty())
    return json::Object{{"why_not", B.Why}};
  return json::Object{{"why_not", nullptr},
                      {"form", B.Form},
                      {"statement", B.Statement.Begin},
                      {"value", B.Value.Begin},
                      {"type", B.Type},
                      {"target", B.Target.empty() ? json::Value(nullptr)
                                                  : json::Value(B.Target)},
                      {"prefix_statements", (int64_t)B.Prefix.size()}};
}

json::Value serialScanJSON(const SerialScanInfo &S) {
  if (!S.Why.empty())
    return json::Object{{"why_not", S.Why}};
  json::Array Loops;
  for (const SerialScanInfo::Loop &L : S.Loops)
    Loops.push_back(json::Object{
        {"loop", L.Id},
        {"form", L.Form},
        {"exclusive", L.Exclusive},
        {"type", L.Type},
        {"accumulator", L.Accumulator.empty() ? json::Value(nullptr)
                                              : json::Value(L.Accumulator)},
        {"counter", L.Counter},
        {"term", L.Term.Begin}});
  return json::Object{{"why_not", nullptr},
                      {"loops", std::move(Loops)},
                      {"builtin_reads", (int64_t)S.Builtins.size()},
                      {"head_writes", (int64_t)S.HeadWrites.size()},
                      {"tails", (int64_t)S.Tails.size()}};
}

json::Value toJSON(const KernelInfo &K) {
  return json::Object{
      {"block_sum", blockSumJSON(K.BlockSum)},
      {"serial_scan", serialScanJSON(K.SerialScan)},
      {"thread_dims_used", strings(K.ThreadDimsUsed)},
      {"thread_mapping", toJSON(K.Mapping)},
      {"address_taken", strings(K.AddressTaken)},
      {"cluster_dims", K.ClusterDims.empty() ? json::Value(nullptr)
                                             : json::Value(K.ClusterDims)},
      {"grid_stride",
       json::Object{{"loops", strings(K.GridStride.Loops)},
                    {"free_dims", strings(K.GridStride.FreeDims)},
                    {"reason", K.GridStride.Reason.empty()
                                   ? json::Value(nullptr)
                                   : json::Value(K.GridStride.Reason)}}},
      {"block_reads", blockReadsJSON(K.BlockReads)},
      {"name", K.Name},
      {"id", K.Id},
      {"signature", K.Signature},
      {"location", K.Location},
      {"in_main_file", K.InMainFile},
      {"span", toJSON(K.Span)},
      {"sides", strings(K.Sides)},
      {"params", arrayOf(K.Params)},
      {"template_params", arrayOf(K.TemplateParams)},
      {"launch_bounds", K.Bounds
                            ? json::Value(json::Object{
                                  {"span", toJSON(K.Bounds->Span)},
                                  {"max_threads", toJSON(K.Bounds->MaxThreads)},
                                  {"min_blocks", toJSON(K.Bounds->MinBlocks)},
                                  {"max_blocks_per_cluster",
                                   toJSON(K.Bounds->MaxBlocksPerCluster)}})
                            : json::Value(nullptr)},
      {"launches", arrayOf(K.Launches)},
      {"loops", arrayOf(K.Loops)},
      {"accesses", arrayOf(K.Accesses)},
      {"shared_arrays", arrayOf(K.SharedArrays)},
      {"block_size", json::Object{{"uses_blockDim", !K.BlockDimUses.empty()},
                                  {"blockDim_dims", strings(K.BlockDimUses)},
                                  {"couplings", arrayOf(K.Couplings)},
                                  {"hardcoded", arrayOf(K.HardcodedSize)}}},
      {"uses_syncthreads", K.UsesSyncthreads},
      {"uses_warp_intrinsics", K.UsesWarpIntrinsics},
      {"uses_atomics", K.UsesAtomics},
      {"atomics", arrayOf(K.Atomics)},
      {"returns", strings(K.Returns)},
      {"asm_statements", strings(K.AsmStatements)},
      {"body_span", toJSON(K.BodySpan)},
      {"name_offset", K.NameOffset},
      {"decl_line_offset", K.DeclLineOffset},
      {"redeclarations", redeclsJSON(K.Redeclarations)},
      {"declared_in_header", K.DeclaredInHeader}};
}

} // namespace

json::Value toJSON(const AffineExpr &E) {
  json::Object Coeffs;
  for (const auto &[Var, C] : E.coefficients())
    Coeffs[Var] = C.str();
  return json::Object{{"text", E.str()},
                      {"coefficients", std::move(Coeffs)},
                      {"constant", E.constantPart().str()}};
}

json::Value toJSON(const KernelModel &M) {
  json::Object O{
      {"file", M.File},
      {"gpu_arch", M.GpuArch},
      {"cuda", json::Object{{"root", M.CudaRoot}, {"version", M.CudaVersion}}},
      {"parsed", M.Unparsed.empty()},
      {"kernels", arrayOf(M.Kernels)}};
  if (!M.Unparsed.empty())
    O["parse_error"] = M.Unparsed;
  return O;
}

} // namespace cro
