x = torch.arange(5)
r = answer(x)
expect(r.tolist() == [4, 3, 2, 1, 0], "x backwards")
expect(not shares(r, x), "PyTorch has no negative strides: reversing copies")
