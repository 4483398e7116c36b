// Holds a live set of LIVE MiB and churns garbage through the heap.  The
// JVM sizes its heap from the memory it sees, a quarter of it by default:
// 128 MiB of a 512 MiB allocation cannot hold 200 MiB live, and the program
// ends in OutOfMemoryError though the allocation had room for it.
public class Churn {
    static final int CHUNK = 1 << 20;
    static byte[][] kept;
    static byte[] sink;

    public static void main(String[] args) {
        int live = args.length > 0 ? Integer.parseInt(args[0]) : 200;
        int churn = args.length > 1 ? Integer.parseInt(args[1]) : 2048;
        try {
            kept = new byte[live][];
            for (int i = 0; i < live; i++)
                kept[i] = touched(i);
            for (int i = 0; i < churn; i++)
                sink = touched(i);
        } catch (OutOfMemoryError e) {
            kept = null;
            System.out.println("jchurn=out_of_heap(maxheap_mib=" + (Runtime.getRuntime().maxMemory() >> 20) + ")");
            System.exit(3);
        }
        long sum = 0;
        for (byte[] b : kept)
            sum += b[0];
        System.out.println("jchurn=finished maxheap_mib=" + (Runtime.getRuntime().maxMemory() >> 20) + " sum=" + sum);
    }

    static byte[] touched(int i) {
        byte[] b = new byte[CHUNK];
        for (int j = 0; j < b.length; j += 4096)
            b[j] = (byte) i;
        return b;
    }
}
