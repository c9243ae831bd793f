x = torch.arange(6).view(2, 3)
flat = answer(x.t())
expect(flat.tolist() == [0, 3, 1, 4, 2, 5], "x.t()'s elements in its own row-major order")
expect(not shares(flat, x), "no view can do it: the answer is a copy")
