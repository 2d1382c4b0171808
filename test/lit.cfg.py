# lit configuration for cuda-rewrite-opt's tests (see test/README.md).
import os
import lit.formats

config.name = "cuda-rewrite-opt"
config.test_format = lit.formats.ShTest(execute_external=False)
config.suffixes = [".cu", ".test"]
config.excludes = ["Inputs", "programs", "unit", "tools", "gpu", "standalone", "CMakeLists.txt", "README.md"]
config.test_source_root = os.path.dirname(__file__)
config.test_exec_root = os.path.join(config.cro_binary_dir, "test")

config.substitutions.append(("%cro", config.cro_tool))
config.substitutions.append(
    ("%flatten", f"python3 {os.path.join(config.test_source_root, 'tools', 'json-flatten.py')}"))
config.substitutions.append(
    ("%strip-checks", f"python3 {os.path.join(config.test_source_root, 'tools', 'strip-checks.py')}"))
config.substitutions.append(
    ("%expect-exit", f"python3 {os.path.join(config.test_source_root, 'tools', 'expect-exit.py')}"))
config.environment["PATH"] = os.pathsep.join(
    [config.llvm_tools_dir, config.environment.get("PATH", os.environ.get("PATH", ""))])
# The tests must not depend on the developer's GPU or environment.
for var in ["CUDA_HOME", "CUDA_PATH", "CRO_DEBUG_CLANG"]:
    config.environment.pop(var, None)
config.environment["PATH"] += os.pathsep + "/usr/local/cuda/bin"

# Headless Chromium tests the HTML report (scripts/install-deps.sh installs it).
import shutil
if shutil.which("chromium"):
    config.available_features.add("chromium")
