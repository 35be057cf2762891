#include <iostream>
#include <time.h>
#include <vector>
using namespace std;
int HEIGHT = 1024, WIDTH = 2048;
int main(void)
{
    clock_t start, end;
    double cpu_time_used;
    start = clock();
    vector<vector<int>> h_A(HEIGHT, vector<int>(WIDTH, 4)), h_B(HEIGHT, vector<int>(WIDTH, 2)), h_C(HEIGHT, vector<int>(WIDTH));
    for (int i = 0; i < HEIGHT; i++)
    {
        for (int j = 0; j < WIDTH; j++)
        {
            h_C[i][j] = h_A[i][j] + h_B[i][j];
        }
        cout << endl;
    }
    end = clock();
    cpu_time_used = ((double)(end - start)) / CLOCKS_PER_SEC;
    for (int i = 0; i < HEIGHT; i++)
    {
        for (int j = 0; j < WIDTH; j++)
        {
            cout << h_C[i][j] << "\t";
        }
    }
    printf("\nTime taken: %f seconds\n", cpu_time_used);
    return 0;
}
