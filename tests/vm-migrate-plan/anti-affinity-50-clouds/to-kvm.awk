# gen-cloud's ESXi hypervisors become KVM: every third (by number)
# already runs KVM 2, the new partition; the others run KVM 1.
BEGIN { RS = "\\{\"id\":\"hv"; ORS = "" }
NR == 1 { print; next }
{
	n = $0; sub(/".*/, "", n)
	sub(/"esxi":"6\.7"/, "\"kvm\":\"" (n % 3 == 0 ? 2 : 1) "\"")
	print "{\"id\":\"hv" $0
}
