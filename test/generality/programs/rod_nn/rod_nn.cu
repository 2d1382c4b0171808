/*
 * nn: nearest neighbour search over a table of (lat, lng) records, in the
 * style of Rodinia's nn. The first kernel computes the Euclidean distance of
 * every record to the query point; the second scans fixed-size chunks of the
 * distance table with a while loop and reports each chunk's closest record.
 * The host reduces the chunk winners.
 *
 * Usage: rod_nn [numRecords] [threadsPerBlock] [numQueries]
 * (query points are drawn at random)
 */
#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <cuda_runtime.h>

#define DEFAULT_THREADS_PER_BLOCK 256
#define CHUNK 64

#define CHECK(call)                                                          \
  do {                                                                       \
    cudaError_t err_ = (call);                                               \
    if (err_ != cudaSuccess) {                                               \
      fprintf(stderr, "%s:%d: CUDA error: %s\n", __FILE__, __LINE__,         \
              cudaGetErrorString(err_));                                     \
      exit(2);                                                               \
    }                                                                        \
  } while (0)

typedef struct latLong {
  float lat;
  float lng;
} LatLong;

/*
 * Calculates the Euclidean distance from each record in the table to the
 * target position. The grid may be two-dimensional when there are more than
 * 65535 blocks' worth of records.
 */
__global__ void euclid(LatLong *d_locations, float *d_distances, unsigned int numRecords,
                       float lat, float lng)
{
  unsigned int globalId = blockDim.x * (gridDim.x * blockIdx.y + blockIdx.x) + threadIdx.x;
  if (globalId >= numRecords)
    return;

  LatLong *latLong = d_locations + globalId;
  float *dist = d_distances + globalId;
  *dist = sqrtf((lat - latLong->lat) * (lat - latLong->lat) +
                (lng - latLong->lng) * (lng - latLong->lng));
}

/* One thread per chunk of `chunk` consecutive distances. */
__global__ void chunk_min(const float *d_distances, float *d_chunkMin, unsigned int *d_chunkIdx,
                          unsigned int numRecords, unsigned int chunk)
{
  unsigned int c = blockIdx.x * blockDim.x + threadIdx.x;
  unsigned int begin = c * chunk;
  if (begin >= numRecords)
    return;

  unsigned int end = begin + chunk;
  if (end > numRecords)
    end = numRecords;

  float best = d_distances[begin];
  unsigned int bestIdx = begin;
  unsigned int i = begin + 1;
  while (i < end) {
    float d = d_distances[i];
    if (d < best) {
      best = d;
      bestIdx = i;
    }
    i++;
  }
  d_chunkMin[c] = best;
  d_chunkIdx[c] = bestIdx;
}

static unsigned long ceilDiv(unsigned long a, unsigned long b) { return (a + b - 1) / b; }

/* Rodinia spreads the blocks over a 2-D grid to stay under 65535 in x. */
static dim3 gridFor(unsigned long numRecords, unsigned long threadsPerBlock)
{
  unsigned long blocks = ceilDiv(numRecords, threadsPerBlock);
  unsigned long gridY = ceilDiv(blocks, 65535);
  unsigned long gridX = ceilDiv(blocks, gridY);
  return dim3((unsigned int)gridX, (unsigned int)gridY);
}

int main(int argc, char *argv[])
{
  unsigned int numRecords = argc > 1 ? (unsigned int)atoi(argv[1]) : (1u << 24);
  int threadsPerBlock = argc > 2 ? atoi(argv[2]) : DEFAULT_THREADS_PER_BLOCK;
  int numQueries = argc > 3 ? atoi(argv[3]) : 5;
  unsigned int numChunks = (numRecords + CHUNK - 1) / CHUNK;

  LatLong *locations = (LatLong *)malloc(sizeof(LatLong) * numRecords);
  float *distances = (float *)malloc(sizeof(float) * numRecords);
  float *chunkMin = (float *)malloc(sizeof(float) * numChunks);
  unsigned int *chunkIdx = (unsigned int *)malloc(sizeof(unsigned int) * numChunks);

  srand(17);
  for (unsigned int i = 0; i < numRecords; i++) {
    locations[i].lat = 90.0f * ((float)rand() / (float)RAND_MAX);
    locations[i].lng = 180.0f * ((float)rand() / (float)RAND_MAX);
  }

  LatLong *d_locations;
  float *d_distances, *d_chunkMin;
  unsigned int *d_chunkIdx;
  CHECK(cudaMalloc((void **)&d_locations, sizeof(LatLong) * numRecords));
  CHECK(cudaMalloc((void **)&d_distances, sizeof(float) * numRecords));
  CHECK(cudaMalloc((void **)&d_chunkMin, sizeof(float) * numChunks));
  CHECK(cudaMalloc((void **)&d_chunkIdx, sizeof(unsigned int) * numChunks));
  CHECK(cudaMemcpy(d_locations, locations, sizeof(LatLong) * numRecords, cudaMemcpyHostToDevice));

  dim3 gridDim = gridFor(numRecords, threadsPerBlock);
  unsigned int bad = 0;
  for (int q = 0; q < numQueries; q++) {
    float lat = 90.0f * ((float)rand() / (float)RAND_MAX);
    float lng = 180.0f * ((float)rand() / (float)RAND_MAX);

    euclid<<<gridDim, threadsPerBlock>>>(d_locations, d_distances, numRecords, lat, lng);
    CHECK(cudaGetLastError());
    chunk_min<<<(numChunks + 127) / 128, 128>>>(d_distances, d_chunkMin, d_chunkIdx, numRecords, CHUNK);
    CHECK(cudaGetLastError());

    CHECK(cudaMemcpy(distances, d_distances, sizeof(float) * numRecords, cudaMemcpyDeviceToHost));
    CHECK(cudaMemcpy(chunkMin, d_chunkMin, sizeof(float) * numChunks, cudaMemcpyDeviceToHost));
    CHECK(cudaMemcpy(chunkIdx, d_chunkIdx, sizeof(unsigned int) * numChunks, cudaMemcpyDeviceToHost));

    /* Check distances against the CPU, then every chunk winner against the
       GPU's own distance table (exact), then the overall nearest record. */
    float cpuBest = FLT_MAX;
    for (unsigned int i = 0; i < numRecords; i++) {
      float dlat = lat - locations[i].lat, dlng = lng - locations[i].lng;
      float ref = sqrtf(dlat * dlat + dlng * dlng);
      if (!(fabsf(distances[i] - ref) <= 1e-5f * (1.0f + ref)))
        bad++;
      if (ref < cpuBest)
        cpuBest = ref;
    }
    unsigned int gpuBestIdx = 0;
    float gpuBest = FLT_MAX;
    for (unsigned int c = 0; c < numChunks; c++) {
      unsigned int begin = c * CHUNK, end = begin + CHUNK < numRecords ? begin + CHUNK : numRecords;
      float m = FLT_MAX;
      for (unsigned int i = begin; i < end; i++)
        m = distances[i] < m ? distances[i] : m;
      if (chunkIdx[c] < begin || chunkIdx[c] >= end || chunkMin[c] != m || distances[chunkIdx[c]] != m)
        bad++;
      else if (m < gpuBest) {
        gpuBest = m;
        gpuBestIdx = chunkIdx[c];
      }
    }
    if (!(fabsf(gpuBest - cpuBest) <= 1e-5f * (1.0f + cpuBest)))
      bad++;
    printf("query (%.3f, %.3f): nearest record %u at (%.4f, %.4f), distance %f\n", lat, lng,
           gpuBestIdx, locations[gpuBestIdx].lat, locations[gpuBestIdx].lng, gpuBest);
  }

  if (bad)
    printf("FAILED rod_nn (%u wrong)\n", bad);
  else
    printf("PASSED rod_nn\n");

  CHECK(cudaFree(d_locations));
  CHECK(cudaFree(d_distances));
  CHECK(cudaFree(d_chunkMin));
  CHECK(cudaFree(d_chunkIdx));
  free(locations); free(distances); free(chunkMin); free(chunkIdx);
  return bad ? 1 : 0;
}
