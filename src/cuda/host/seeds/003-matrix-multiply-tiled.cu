#include <iostream>
#include <time.h>
#include <cuda_runtime.h>
#include <vector>
#define TILE_WIDTH 16
#define TEMP_WIDTH 2047 //
using namespace std;
int WIDTH_A = 1023, HEIGHT_A = 2047, WIDTH_B = 2047, HEIGHT_B = 511, HEIGHT_C = 511, WIDTH_C = 1023;

__global__ void matrix_addition(int *A, int *B, int *C, const int height, const int width)
{
    __shared__ int ds_A[TILE_WIDTH][TILE_WIDTH];
    __shared__ int ds_B[TILE_WIDTH][TILE_WIDTH];

    const int x = blockIdx.x * blockDim.x + threadIdx.x;
    const int y = blockIdx.y * blockDim.y + threadIdx.y;
    const int tx = threadIdx.x;
    const int ty = threadIdx.y;
    int value = 0;
    for (int i = 0; i < (TEMP_WIDTH - 1) / TILE_WIDTH + 1; i++)
    { // 每次遍历一个块
        if (y < height && i * TILE_WIDTH + tx < TEMP_WIDTH)
        {
            ds_B[ty][tx] = B[y * TEMP_WIDTH + (i * TILE_WIDTH + tx)]; // id = y * width + x,每次遍历x+Tile_WIDTH,B的坐标用的是B的width
        }
        else
        {
            ds_B[ty][tx] = 0;
        }
        if (i * TILE_WIDTH + ty < TEMP_WIDTH && x < width) // 新的x不能越B的x界,新的y不能越A的y界
        {
            ds_A[ty][tx] = A[(i * TILE_WIDTH + ty) * width + x]; // A的坐标用的是A的width,即C的width
        }
        else
        {
            ds_A[ty][tx] = 0;
        }
        __syncthreads(); // 等待这个块内所有线程执行完毕,
        if (y < height && x < width)
        {
            for (int k = 0; k < TILE_WIDTH; k++)
            {
                value += ds_B[ty][k] * ds_A[k][tx]; // 再将第i个块所有线程的结果放到value里面。
            }
        }

        __syncthreads();
    }
    if (y < height && x < width)
    {
        C[y * width + x] = value;
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
    size_t bytesCountA = HEIGHT_A * WIDTH_A * sizeof(int);
    size_t bytesCountB = HEIGHT_B * WIDTH_B * sizeof(int);
    size_t bytesCountC = HEIGHT_C * WIDTH_C * sizeof(int);
    h_A = new int[bytesCountA];
    h_B = new int[bytesCountB];
    h_C = new int[bytesCountC];

    // 初始化输入矩阵
    for (int i = 0; i < HEIGHT_A; i++)
    {
        for (int j = 0; j < WIDTH_A; j++)
        {
            h_A[i * WIDTH_A + j] = 4;
        }
    }
    for (int i = 0; i < HEIGHT_B; i++)
    {
        for (int j = 0; j < WIDTH_B; j++)
        {
            h_B[i * WIDTH_B + j] = 2;
        }
    }

    // 分配设备内存,将数据从主机复制到设备
    cudaMalloc((void **)&d_A, bytesCountA);
    cudaMalloc((void **)&d_B, bytesCountB);
    cudaMalloc((void **)&d_C, bytesCountC);
    cudaMemcpy(d_A, h_A, bytesCountA, cudaMemcpyHostToDevice);
    cudaMemcpy(d_B, h_B, bytesCountB, cudaMemcpyHostToDevice);

    // 核函数计算
    dim3 block(16, 16);
    dim3 grid(64, 32);
    matrix_addition<<<grid, block>>>(d_A, d_B, d_C, HEIGHT_C, WIDTH_C);

    // 记录结束事件
    cudaEventRecord(stop, 0);
    // 同步事件,确保所有任务完成
    cudaEventSynchronize(stop);
    // 计算经过的时间
    cudaEventElapsedTime(&elapsedTime, start, stop);

    // 将数据从设备复制回主机
    cudaMemcpy(h_C, d_C, bytesCountC, cudaMemcpyDeviceToHost);

    // 输出结果
    for (int i = 0; i < HEIGHT_C; i++)
    {
        for (int j = 0; j < WIDTH_C; j++)
        {
            printf("%d ", h_C[i * WIDTH_C + j]);
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
