#include <cuda_runtime.h>
#include <stdio.h>

#define BLOCK_SIZE 512
#define SECTION_SIZE 1024

__global__ void work_efficient_scan_kernel(int *inputMatrix, int *output, int width)
{
    __shared__ int XY[SECTION_SIZE];
    unsigned int tx = threadIdx.x;
    unsigned int start = blockIdx.x * 2 * blockDim.x;
    XY[tx] = inputMatrix[start + tx];
    XY[blockDim.x + tx] = inputMatrix[start + blockDim.x + tx];

    for (unsigned int stride = 1; stride <= blockDim.x; stride *= 2)
    {
        __syncthreads();
        int index = (threadIdx.x + 1) * 2 * stride - 1;
        if (index < SECTION_SIZE)
        {
            XY[index] += XY[index - stride];
        }
    }
    for (int stride = blockDim.x / 2; stride > 0; stride /= 2)
    {
        __syncthreads();
        int index = (threadIdx.x + 1) * stride * 2 - 1;
        if (index + stride < SECTION_SIZE)
        {
            XY[index + stride] += XY[index];
        }
    }
    if (start + blockDim.x + tx < width * width)
    {
        output[start + tx] = XY[tx];
        output[start + blockDim.x + tx] = XY[blockDim.x+tx];
    }
}

int main()
{
    float elapsedTime;
    cudaEvent_t start, stop;
    // 初始化 CUDA 事件
    cudaEventCreate(&start);
    cudaEventCreate(&stop);

    const int matrixSize = 1024 * 1024;
    const int width = 1024;

    int *inputMatrix, *output;
    int *d_inputMatrix;
    int *d_output;

    inputMatrix = new int[matrixSize];
    output = new int[matrixSize];

    // 初始化input
    for (int i = 0; i < matrixSize; i++)
    {
        inputMatrix[i] = 1;
        output[i] = 0;
    }

    // 分配 GPU 内存
    cudaMalloc((void **)&d_inputMatrix, matrixSize * sizeof(int));
    cudaMalloc((void **)&d_output, matrixSize * sizeof(int));

    // 将输入数据从主机内存拷贝到 GPU 内存
    cudaMemcpy(d_inputMatrix, inputMatrix, matrixSize * sizeof(int), cudaMemcpyHostToDevice);

    // 记录开始事件
    cudaEventRecord(start, 0);

    dim3 gridSize(1024, 1);
    dim3 blockSize(BLOCK_SIZE, 1);
    work_efficient_scan_kernel<<<gridSize, blockSize>>>(d_inputMatrix, d_output, width);

    // 将输出数据从 GPU 内存拷贝到主机内存
    cudaMemcpy(output, d_output, matrixSize * sizeof(int), cudaMemcpyDeviceToHost);

    // y方向相加
    for (int x = 0; x < width; x++)
    {
        for (int y = 1; y < width; y++)
        {
            output[y * width + x] += output[(y - 1) * width + x];
        }
    }

    // 记录结束事件
    cudaEventRecord(stop, 0);
    // 同步事件,确保所有任务完成
    cudaEventSynchronize(stop);
    // 计算经过的时间
    cudaEventElapsedTime(&elapsedTime, start, stop);

    // 打印结果
    for (int i = 0; i < 5; i++)
    {
        for (int j = 0; j < 5; j++)
        {
            printf("output[%d][%d]: %d\n", i, j, output[i * width + j]);
        }
    }
    printf("output[%d][%d]: %d\n", 1023, 1023, output[1023 * width + 1023]);

    // 输出时间
    printf("Elapsed time: %3.4f ms\n", elapsedTime);

    // 释放 GPU 内存
    cudaFree(d_inputMatrix);
    cudaFree(d_output);

    // 最后释放主机内存
    delete[] inputMatrix;
    delete[] output;

    return 0;
}
