#include <cuda_runtime.h>
#include <stdio.h>

#define BLOCK_SIZE 512

__global__ void rowSum(int *input, int *output, int width)
{
    __shared__ int partialSum[2 * BLOCK_SIZE];
    unsigned int tx = threadIdx.x;
    unsigned int start = blockIdx.x * 2 * blockDim.x;
    partialSum[tx] = input[start + tx];
    partialSum[blockDim.x + tx] = input[start + blockDim.x + tx];

    // reduce better
    for (unsigned int stride = blockDim.x; stride > 0; stride /= 2)
    {
        __syncthreads();
        if (tx < stride)
            partialSum[tx] += partialSum[tx + stride];
    }
    // 将最后的结果存放到
    if (tx == 0)
    {
        output[blockIdx.x] = partialSum[0];
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
    const int blockSize = BLOCK_SIZE;
    const int numBlocks = (matrixSize + blockSize - 1) / blockSize / 2;
    const int outputSize = numBlocks;

    int *inputMatrix, *output;
    int *d_inputMatrix, *d_output;

    // 为input和output分配内存
    inputMatrix = new int[matrixSize];
    output = new int[outputSize];

    // 为d_input和d_output分配内存
    cudaMalloc((void **)&d_inputMatrix, matrixSize * sizeof(int));
    cudaMalloc((void **)&d_output, outputSize * sizeof(int));

    // 初始化input
    for (int i = 0; i < matrixSize; i++)
    {
        inputMatrix[i] = 1;
    }
    // 记录开始事件
    cudaEventRecord(start, 0);
    // 复制input到d_input
    cudaMemcpy(d_inputMatrix, inputMatrix, matrixSize * sizeof(int), cudaMemcpyHostToDevice);

    // 启动核函数
    rowSum<<<numBlocks, blockSize>>>(d_inputMatrix, d_output, matrixSize);

    // 将output结果返回
    cudaMemcpy(output, d_output, outputSize * sizeof(int), cudaMemcpyDeviceToHost);

    // 记录结束事件
    cudaEventRecord(stop, 0);
    // 同步事件,确保所有任务完成
    cudaEventSynchronize(stop);
    // 计算经过的时间
    cudaEventElapsedTime(&elapsedTime, start, stop);

    for (int i = 0; i < 10; i++)
    {
        printf("output[%d]: %d\n", i, output[i]);
    }
    // 输出时间
    printf("Elapsed time: %3.4f ms\n", elapsedTime);
    // 最后释放内存。
    delete[] inputMatrix;
    delete[] output;
    cudaFree(d_inputMatrix);
    cudaFree(d_output);

    return 0;
}
