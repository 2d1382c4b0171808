#pragma once
#define THREADS 256
