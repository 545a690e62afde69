/* host: a stand-in host library for the fat-binary tests. build.sh adds the
   device code as a .hip_fatbin section, as hipcc does for real libraries. */
int host_entry(int x) { return x + 1; }
