#include <stdio.h>
#include <stdlib.h>
#include <time.h>
__global__ void histo_kernel(unsigned char *buffer, long size, unsigned int *histo)
{
    __shared__ unsigned int histo_private[7];

    // 初始化值共享内存为0;
    if (threadIdx.x < 7)
        histo_private[threadIdx.x] = 0;
    __syncthreads();
    int i = threadIdx.x + blockIdx.x * blockDim.x;
    // stride=grid上所有线程
    int stride = blockDim.x * gridDim.x;
    while (i < size)
    {
        int alphabet_position = buffer[i] - 'a';
        if (alphabet_position >= 0 && alphabet_position < 26)
            atomicAdd(&(histo_private[alphabet_position / 4]), 1);
        i += stride;
    }
    // 等待所有线程执行完毕
    __syncthreads();

    if (threadIdx.x < 7)
    {
        atomicAdd(&(histo[threadIdx.x]), histo_private[threadIdx.x]);
    }
}

int main(void)
{
    unsigned char *buffer, *d_buffer;
    unsigned int *histo, *d_histo;
    int histoSize = 7;
    long size = 1024;
    size_t byteSize = sizeof(unsigned char) * size;
    buffer = new unsigned char[byteSize];
    histo = new unsigned int[sizeof(unsigned int) * histoSize];
    cudaMalloc((void **)&d_buffer, sizeof(unsigned char) * size);
    cudaMalloc((void **)&d_histo, sizeof(unsigned int) * histoSize);

    for (long i = 0; i < size; i++)
    {
        buffer[i] = (char)(i % 26 + 'a');
    }
    for (long i = 0; i < histoSize; i++)
    {
        histo[i] = 0;
    }
    cudaMemcpy(d_buffer, buffer, byteSize, cudaMemcpyHostToDevice);
    cudaMemcpy(d_histo, histo, sizeof(unsigned int) * histoSize, cudaMemcpyHostToDevice);
    histo_kernel<<<2, 256>>>(d_buffer, size, d_histo);
    cudaDeviceSynchronize();
    cudaMemcpy(histo, d_histo, sizeof(unsigned int) * histoSize, cudaMemcpyDeviceToHost);
    for (long i = 0; i < histoSize; i++)
    {
        printf("histo[%ld]:%d\n", i, histo[i]);
    }
    cudaDeviceReset();
    delete[] buffer;
    delete[] histo;
    cudaFree(d_buffer);
    cudaFree(d_histo);
    return 0;
}
