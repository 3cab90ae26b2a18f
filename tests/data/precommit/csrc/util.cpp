// Helpers with no operator in them.
int ceil_div(int a, int b) { return (a + b - 1) / b; }
