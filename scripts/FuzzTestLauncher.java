import static org.junit.platform.engine.discovery.DiscoverySelectors.selectMethod;

import java.io.PrintWriter;
import java.lang.reflect.Method;
import java.util.Arrays;
import org.junit.platform.launcher.Launcher;
import org.junit.platform.launcher.core.LauncherDiscoveryRequestBuilder;
import org.junit.platform.launcher.core.LauncherFactory;
import org.junit.platform.launcher.listeners.SummaryGeneratingListener;
import org.junit.platform.launcher.listeners.TestExecutionSummary;

/**
 * Runs one JUnit method, {@code fully.qualified.Class#method}, in this JVM and exits 0 only if it ran
 * and passed: scripts/fuzz.sh starts one per fuzz test (Jazzer fuzzes one test per JVM) with the
 * module's test classpath, instead of a Maven run per test (fuzz.sh compiles it into target/fuzz/launcher).
 */
public final class FuzzTestLauncher {
    private FuzzTestLauncher() {
    }

    public static void main(String[] args) throws ClassNotFoundException {
        if (args.length != 1 || !args[0].contains("#")) {
            System.err.println("usage: FuzzTestLauncher fully.qualified.Class#method");
            System.exit(2);
        }
        // By name: a fuzz test's parameters (bytes, a data provider, ...) differ from test to test.
        String[] classAndMethod = args[0].split("#", 2);
        Class<?> testClass = Class.forName(classAndMethod[0]);
        Method method = Arrays.stream(testClass.getDeclaredMethods()).filter(m -> m.getName().equals(classAndMethod[1]))
                .findFirst().orElseThrow(() -> new IllegalArgumentException("no method " + args[0]));
        Launcher launcher = LauncherFactory.create();
        SummaryGeneratingListener summary = new SummaryGeneratingListener();
        launcher.execute(LauncherDiscoveryRequestBuilder.request().selectors(selectMethod(testClass, method)).build(), summary);
        TestExecutionSummary result = summary.getSummary();
        result.printTo(new PrintWriter(System.out, true));
        result.printFailuresTo(new PrintWriter(System.out, true), 50);
        boolean ran = result.getTestsSucceededCount() + result.getTestsFailedCount() > 0;
        System.exit(ran && result.getTotalFailureCount() == 0 ? 0 : 1);
    }
}
