#!/usr/bin/env bash
# Diagnostic kept for the open question in docs/measure.md: a measurement
# library built on the H200 host (g++ 13) -- by the tool or by hand, with or
# without a static C++ runtime -- crashed every program it was loaded into,
# while the one built by this project's CMake (Debian's g++ 12) works. Run
# through the device tool with the binary carried; it prints each attempt's
# exit code and the library's output.
set -x
lib=$(build/bin/cuda-rewrite-opt --print-measurement-library)
echo "lib=$lib"; ls -la "$lib"; ldd "$lib"
nvcc -O3 -arch=sm_90 test/gpu/Inputs/scale.cu -o /tmp/scale
src=/tmp/CroInjection.cpp
cp lib/Measure/injection/CroInjection.cpp $src
C=/usr/local/cuda
g++ --version | head -1
g++ -std=c++17 -O2 -fPIC -shared -I$C/include $src -o /tmp/libB.so -L$C/lib64 -lcupti -L$C/lib64/stubs -lcuda -Wl,-rpath,$C/lib64
g++ -std=c++17 -O2 -fPIC -shared -I$C/include $src -o /tmp/libC.so -L$C/lib64 -lcupti -L$C/lib64/stubs -lcuda -static-libstdc++ -static-libgcc -Wl,-rpath,$C/lib64
for L in "$lib" /tmp/libB.so /tmp/libC.so; do
  CUDA_INJECTION64_PATH=$L CRO_OUT=/tmp/o.jsonl CRO_KERNELS=scale /tmp/scale; echo "rc=$? for $L"; head -c 300 /tmp/o.jsonl; echo
done
