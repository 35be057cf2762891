#include <stdio.h>
#include <stdlib.h>
#include <time.h>

__global__ void convolution_2D_basic_kernel(unsigned int *in, unsigned int *mask, unsigned int *out, int maskwidth, int w, int h)
{
    int Col = blockIdx.x * blockDim.x + threadIdx.x;
    int Row = blockIdx.y * blockDim.y + threadIdx.y;
    if (Col < w && Row < h)
    {
        int pixVal = 0;
        int N_start_col = Col - (maskwidth / 2);
        int N_start_row = Row - (maskwidth / 2);
        // Get the of the surrounding box
        for (int j = 0; j < maskwidth; ++j)
        {
            for (int k = 0; k < maskwidth; ++k)
            {
                int curRow = N_start_row + j;
                int curCol = N_start_col + k;
                // Verify we have a valid image pixel
                if (curRow > -1 && curRow < h && curCol > -1 && curCol < w)
                {
                    pixVal += in[curRow * w + curCol] * mask[j * maskwidth + k];
                }
            }
        }
        // Write our new pixel value out
        out[Row * w + Col] = (unsigned int)(pixVal);
    }
}
int main()
{
    unsigned int *mask, *d_mask, *d_output;
    unsigned int *input, *d_input, *output;
    int width = 1024, height = 1024;
    int maskwidth = 5;
    size_t inputSize = sizeof(unsigned int) * width * height;
    size_t maskSize = sizeof(unsigned int) * maskwidth * maskwidth;
    mask = new unsigned int[maskSize];
    input = new unsigned int[inputSize];
    output = new unsigned int[inputSize];

    cudaMalloc((void **)&d_mask, maskSize);
    cudaMalloc((void **)&d_input, inputSize);
    cudaMalloc((void **)&d_output, inputSize);

    for (int y = 0; y < maskwidth; y++)
    {
        for (int x = 0; x < maskwidth; x++)
        {
            mask[y * width + x] = 2;
        }
    }
    srand(time(NULL));
    for (int y = 0; y < height; y++)
    {
        for (int x = 0; x < width; x++)
        {
            input[y * width + x] = rand() % 200;
            output[y * width + x] = 0;
        }
    }
    cudaMemcpy(d_mask, mask, maskSize, cudaMemcpyHostToDevice);
    cudaMemcpy(d_input, input, inputSize, cudaMemcpyHostToDevice);
    cudaMemcpy(d_output, output, inputSize, cudaMemcpyHostToDevice);

    dim3 DimGrid(64, 64, 1);
    dim3 DimBlock(16, 16, 1);
    convolution_2D_basic_kernel<<<DimGrid, DimBlock>>>(d_input, d_mask, d_output, maskwidth, width, height);
    cudaDeviceSynchronize();
    cudaMemcpy(output, d_output, inputSize, cudaMemcpyDeviceToHost);
    for (int i = 0; i < 10; i++)
    {
        for (int j = 0; j < 10; j++)
        {
            printf("outpu[%d][%d]:%d\n", i, j, output[i * width + j]);
        }
    }
    cudaDeviceReset();
    return 0;
}
