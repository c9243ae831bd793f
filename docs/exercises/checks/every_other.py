x = torch.arange(10)
e = answer(x)
expect(e.tolist() == [0, 2, 4, 6, 8], "the elements at even positions")
expect(shares(e, x) and e.stride(0) == 2, "a view stepping 2 elements")
