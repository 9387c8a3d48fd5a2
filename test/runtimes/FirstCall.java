// SPDX-License-Identifier: CC0-1.0 OR 0BSD OR MIT-0
// FirstCall.java: test-runtimes' JVM program. Threads dereference null
// and catch the NullPointerException the JVM makes of each SIGSEGV, all
// through the process's first call of the library, made through JNI by
// one thread or by CALLERS threads at once (argument: one or many). Then
// the JVM must still make the exception of a fault, here and in them.
// Arguments: the JNI library's path, one|many. Prints the witness's report
// and "after npe caught background N".
public final class FirstCall {
    static native void before(int callers);
    static native long call();
    static native void after();
    static native String report();

    static final int FAULTERS = 4, CALLERS = 4, WARM = 1000;

    static final class Box {
        int value;
    }

    static volatile Box none; // never set
    static volatile boolean stop;

    static int read(Box box) {
        return box.value;
    }

    static boolean faults() {
        try {
            read(none);
            return false;
        } catch (NullPointerException e) {
            return true;
        }
    }

    static final class Faulter extends Thread {
        volatile long caught;

        public void run() {
            while (!stop) {
                if (faults()) caught++;
            }
        }
    }

    // Until each faulter has caught `more` exceptions after `from`.
    static void await(Faulter[] f, long[] from, long more) throws InterruptedException {
        for (int i = 0; i < f.length; i++) {
            while (f[i].caught < from[i] + more) Thread.sleep(1);
        }
    }

    public static void main(String[] args) throws Exception {
        System.load(args[0]);
        int n = args.length > 1 && args[1].equals("many") ? CALLERS : 1;
        Faulter[] f = new Faulter[FAULTERS];
        long[] start = new long[FAULTERS];
        for (int i = 0; i < FAULTERS; i++) {
            f[i] = new Faulter();
            f[i].start();
        }
        await(f, start, WARM);
        before(n);
        if (n == 1) {
            call();
        } else {
            Thread[] c = new Thread[n];
            for (int i = 0; i < n; i++) {
                c[i] = new Thread(FirstCall::call);
                c[i].start();
            }
            for (Thread t : c) t.join();
        }
        after();
        long[] at = new long[FAULTERS];
        for (int i = 0; i < FAULTERS; i++) at[i] = f[i].caught;
        String here = faults() ? "caught" : "not thrown";
        await(f, at, WARM);
        stop = true;
        long total = 0;
        for (Faulter t : f) {
            t.join();
            total += t.caught;
        }
        System.out.println(report());
        System.out.println("after npe " + here + " background " + total);
    }
}
