#include <stdio.h>
#include <stdlib.h>
#include <time.h>   
#include "error.cuh"

#define BLOCK_SIZE 256
#define N 1000000
#define GRID_SIZE  ((N + BLOCK_SIZE - 1) / BLOCK_SIZE) 
#define topk 20


__managed__ int source_array[N];
__managed__ int _1pass_results[topk * GRID_SIZE];
__managed__ int final_results[topk];

__device__ __host__ void insert_value(int* array, int k, int data)
{
	/*
	* 感谢Ken老师提供的函数 
	
	* 作用:判定插入的值是否为目标数组中非重复的最大的k个元素之一,若是,则插入恰当位置(从大到小)并保证其余元素的相对位置不。
	
	* array 被插入的目标数组
	* k 目标数组中需要按顺序排列的元素个数
	* data 插入的值
	*/
    for (int i = 0; i < k; i++)
    {	
    	//重复则不需要插入,直接返回
        if (array[i] == data)
        {
            return;
        }
    }
    //因为目标数组最大的k个元素默认再最前面且按照从大到小的顺序排列,所以当插入的值小于第数组中第k个元素即array[k-1]时,即表面插入值并非该数组中最大的k个元素之一。
    if (data < array[k - 1])
        return;
    //经过前面判断,得出插入值符合条件,所以将值插入恰当位置(从大到小)
    for (int i = k - 2; i >= 0; i--)
    {
        if (data > array[i])
            array[i + 1] = array[i];
        else {
            array[i + 1] = data;
            return;
        }
    }
    array[0] = data;
}

__global__ void top_k(int* input, int length, int* output, int k)
{
    __shared__ int lich[BLOCK_SIZE * topk];
    //因为每个线程都要维护一个前k个元素的数组,所以申请的share memory为block中线程数 * 所求元素个数。
    int top_array[topk];

    for (int i = 0; i < topk; i++)
    {
        top_array[i] = INT_MIN;//INT_MIN在标准头文件limits.h中定义,表示最小整数,防止上溢。
    }

    for (int idx = threadIdx.x + blockDim.x * blockIdx.x; idx < length; idx += gridDim.x * blockDim.x)
    {
        insert_value(top_array, k, input[idx]);
        //当申请的线程数大于等于输入数据的元素数时将每个线程对应的元素赋值到线程对应的寄存器中;当申请的线程数小于输入数据的元素数时,利用insert_value函数提取最大的k个值,不足k个的话用依旧使用INT_MIN补全,防止上溢。
    }
    for (int j = 0; j < topk; j++)
    {
        lich[topk * threadIdx.x+j] = top_array[j];
        //将每个线程读入数据中最大的k个值按顺序写入share memory
    }
    __syncthreads();
	
    for (int i = BLOCK_SIZE / 2; i >= 1; i /= 2)
    {
    //后续随着下面循环的进行,每一次循环后block中参与计算的thread数逐渐减少,直至减少至1。
        if (threadIdx.x < i)
        {
            for (int m = 0; m < topk; m++)
            {
                insert_value(top_array, topk, lich[topk * (threadIdx.x + i) + m]);
                //两两线程对比,将一个线程中维护的k个最大的数值通过insert_value函数做对比,从2k个元素中挑选出k个最大的元素返回到一个线程中。
            }
        }
        __syncthreads();

        if (threadIdx.x < i)
        {
            for (int m = 0; m < topk; m++)
            {
                lich[topk* threadIdx.x + m] = top_array[m];
                //随着循环的进行,需要占用的share memory空间越来越小,从最大的BLOCKSIZE * k,到BLOCKSIZE /2 * k,再到BLOCKSIZE /4 * k,……,最后到1*k,循环结束。
            }
        }
        __syncthreads();
    }

	//屎山代码,可以并行的。。。作者懒得改了
    if (blockIdx.x * blockDim.x < length)
    {
        if (threadIdx.x == 0)
        {
            for (int m = 0; m < topk; m++)
            {
                output[topk * blockIdx.x + m] = lich[m];
            }
        }
    }
}

void cpu_result_topk(int* input, int count, int* output)
{
    /*for (int i = 0; i < topk; i++)
    {
        output[i] = INT_MIN;
    }*/
    for (int i = 0; i < count; i++)
    {
        insert_value(output, topk, input[i]);
		//与block中其他线程合作,求出所在block内share memory中最大的k个值。采用two-pass的方法,所以最后一次调用核函数时grid必须为1.
    }
}

void _init(int* ptr, int count)
{
    srand((unsigned)time(NULL));
    for (int i = 0; i < count; i++) ptr[i] = rand();
}

int main(int argc, char const* argv[])
{
    int cpu_result[topk] = { 0 };
    cudaEvent_t start, stop;
    CHECK(cudaEventCreate(&start));
    CHECK(cudaEventCreate(&stop));

    //Fill input data buffer
    _init(source_array, N);


    printf("\n***********GPU RUN**************\n");
    CHECK(cudaEventRecord(start));
    top_k << <GRID_SIZE, BLOCK_SIZE >> > (source_array, N, _1pass_results, topk);
    CHECK(cudaGetLastError());
    top_k << <1, BLOCK_SIZE >> > (_1pass_results, topk * GRID_SIZE, final_results, topk);
    CHECK(cudaGetLastError());
    CHECK(cudaDeviceSynchronize());

    CHECK(cudaEventRecord(stop));
    CHECK(cudaEventSynchronize(stop));
    float elapsed_time;
    CHECK(cudaEventElapsedTime(&elapsed_time, start, stop));
    printf("Time = %g ms.\n", elapsed_time);

    CHECK(cudaEventDestroy(start));
    CHECK(cudaEventDestroy(stop));

    cpu_result_topk(source_array, N, cpu_result);

    int ok = 1;
    for (int i = 0; i < topk; ++i)
    {
        printf("cpu top%d: %d; gpu top%d: %d \n", i + 1, cpu_result[i], i + 1, final_results[i]);
        if (fabs(cpu_result[i] - final_results[i]) > (1.0e-10))
        {

            ok = 0;
        }
    }

    if (ok)
    {
        printf("Pass!!!\n");
    }
    else
    {
        printf("Error!!!\n");
    }
    return 0;
}

