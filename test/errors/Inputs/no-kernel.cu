// A CUDA file with device and host code but no __global__ function.
__device__ float square(float x) { return x * x; }
int main() { return 0; }
