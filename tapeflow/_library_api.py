"""Public names of the training library: keras, data, train, devices, TF1 compatibility."""
