// Same stem as ../project/kernels/add.tile.cpp (the same_stem case); never translated.
