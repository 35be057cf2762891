#include <iostream>
#include <time.h>
#include <cuda_runtime.h>
#include <vector>

using namespace std;

int HEIGHT = 1024, WIDTH = 2048;

__global__ void matrix_addition(int *A, int *B, int *C, const int height, const int width)
{
    const int x = blockIdx.x * blockDim.x + threadIdx.x;
    const int y = blockIdx.y * blockDim.y + threadIdx.y;
    const int id = y * width + x;
    if (x < width && y < height)
    {
        C[id] = A[id] + B[id];
    }
}

int main(void)
{
    float elapsedTime;
    cudaEvent_t start, stop;
    // 初始化 CUDA 事件
    cudaEventCreate(&start);
    cudaEventCreate(&stop);
    // 记录开始事件
    cudaEventRecord(start, 0);

    int *h_A, *h_B, *h_C;
    int *d_A, *d_B, *d_C;
    size_t bytesCount = HEIGHT * WIDTH * sizeof(int);
    h_A = new int[bytesCount];
    h_B = new int[bytesCount];
    h_C = new int[bytesCount];

    // 初始化输入矩阵
    for (int i = 0; i < HEIGHT; i++)
    {
        for (int j = 0; j < WIDTH; j++)
        {
            h_A[i * WIDTH + j] = 4;
            h_B[i * WIDTH + j] = 2;
        }
    }

    // 分配设备内存,将数据从主机复制到设备
    cudaMalloc((void **)&d_A, bytesCount);
    cudaMalloc((void **)&d_B, bytesCount);
    cudaMalloc((void **)&d_C, bytesCount);
    cudaMemcpy(d_A, h_A, bytesCount, cudaMemcpyHostToDevice);
    cudaMemcpy(d_B, h_B, bytesCount, cudaMemcpyHostToDevice);

    // 核函数计算
    dim3 block(32, 32);
    dim3 grid(64, 32);
    matrix_addition<<<grid, block>>>(d_A, d_B, d_C, HEIGHT, WIDTH);

    // 记录结束事件
    cudaEventRecord(stop, 0);
    // 同步事件,确保所有任务完成
    cudaEventSynchronize(stop);
     // 计算经过的时间
    cudaEventElapsedTime(&elapsedTime, start, stop);


    // 将数据从设备复制回主机
    cudaMemcpy(h_C, d_C, bytesCount, cudaMemcpyDeviceToHost);

    // 输出结果
    for (int i = 0; i < HEIGHT; i++)
    {
        for (int j = 0; j < WIDTH; j++)
        {
            printf("%d ", h_C[i * WIDTH + j]);
        }
        printf("\n");
    }
    // 输出时间
    printf("Elapsed time: %3.1f ms\n", elapsedTime);
    // 销毁事件
    cudaEventDestroy(start);
    cudaEventDestroy(stop);

    // 释放内存
    delete[] h_A;
    delete[] h_B;
    delete[] h_C;
    cudaFree(d_A);
    cudaFree(d_B);
    cudaFree(d_C);
    cudaDeviceReset();

    return 0;
}
