# `$(CC) -E -dM` output of a kernel unistd header -> one C table named syscall_table_<table>.
# Only "#define __NR_name number" lines count: other macros are aliases or helpers.
$1 == "#define" && $2 ~ /^__NR_/ && $3 ~ /^[0-9]+$/ {
	names[n++] = sprintf("\t{ %s, \"%s\" },", $3, substr($2, 6))
}
END {
	printf "const struct sct_syscall_name syscall_table_%s[] = {\n", table
	for (i = 0; i < n; i++)
		print names[i]
	if (n == 0)
		print "\t{ 0, 0 },"
	printf "};\nconst uint32_t syscall_table_%s_len = %d;\n", table, n
}
