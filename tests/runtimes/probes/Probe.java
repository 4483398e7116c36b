// Reports what the JVM sized itself from: its processor count and heap limit.
public class Probe {
    public static void main(String[] args) {
        Runtime r = Runtime.getRuntime();
        System.out.println("cpus=" + r.availableProcessors() + " maxheap_mib=" + (r.maxMemory() >> 20));
    }
}
