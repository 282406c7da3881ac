import com.sun.jdi.AbsentInformationException;
import com.sun.jdi.Bootstrap;
import com.sun.jdi.ReferenceType;
import com.sun.jdi.VirtualMachine;
import com.sun.jdi.connect.Connector;
import com.sun.jdi.connect.LaunchingConnector;
import com.sun.jdi.event.Event;
import com.sun.jdi.event.EventSet;
import com.sun.jdi.event.MethodEntryEvent;
import com.sun.jdi.event.VMDeathEvent;
import com.sun.jdi.event.VMDisconnectEvent;
import com.sun.jdi.request.EventRequest;
import com.sun.jdi.request.MethodEntryRequest;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * Which source files of the product run while the service processes one groupchat message: the
 * target runs in a JVM this program debugs (JDI, part of the JDK), and every method entered in an
 * {@code org.reconmuc} class between the target's begin() and end() is mapped to its source file
 * under some module's {@code src/main/java}. Test classes (the bench, the target) are not counted.
 *
 * Usage: java MessagePath.java REPO_ROOT CLASSPATH [relaxed]
 */
public final class MessagePath {
    public static void main(String[] args) throws Exception {
        Path repo = Path.of(args[0]);
        LaunchingConnector launcher = Bootstrap.virtualMachineManager().defaultConnector();
        Map<String, Connector.Argument> launch = launcher.defaultArguments();
        launch.get("options").setValue("-cp " + args[1]);
        launch.get("main").setValue("org.reconmuc.component.muc.MessagePathTarget" + (args.length > 2 ? " " + args[2] : ""));
        VirtualMachine vm = launcher.launch(launch);
        drain(vm.process().getInputStream());
        drain(vm.process().getErrorStream());
        MethodEntryRequest entries = vm.eventRequestManager().createMethodEntryRequest();
        entries.addClassFilter("org.reconmuc.*");
        // Each entry holds its thread until read: the names are asked of the running target.
        entries.setSuspendPolicy(EventRequest.SUSPEND_EVENT_THREAD);
        entries.enable();
        vm.resume();
        boolean recording = false;
        Map<String, TreeSet<String>> methodsByFile = new TreeMap<>();
        TreeSet<String> notProduct = new TreeSet<>();
        // Looked up once per class: the same classes are entered again and again.
        Map<String, Optional<String>> fileOfType = new HashMap<>();
        loop:
        while (true) {
            EventSet set = vm.eventQueue().remove();
            for (Event e : set) {
                if (e instanceof VMDeathEvent || e instanceof VMDisconnectEvent) {
                    break loop;
                }
                if (!(e instanceof MethodEntryEvent entry)) {
                    continue;
                }
                ReferenceType type = entry.method().declaringType();
                if (type.name().endsWith("MessagePathTarget")) {
                    String name = entry.method().name();
                    if (name.equals("begin")) {
                        recording = true;
                    } else if (name.equals("end")) {
                        recording = false;
                    }
                    continue;
                }
                if (!recording) {
                    continue;
                }
                Optional<String> cached = fileOfType.get(type.name());
                if (cached == null) {
                    cached = Optional.ofNullable(sourceFile(repo, type));
                    fileOfType.put(type.name(), cached);
                }
                String file = cached.orElse(null);
                if (file == null) {
                    notProduct.add(type.name());
                } else {
                    methodsByFile.computeIfAbsent(file, f -> new TreeSet<>())
                            .add(type.name().substring(type.name().lastIndexOf('.') + 1) + "." + entry.method().name());
                }
            }
            set.resume();
        }
        for (var e : methodsByFile.entrySet()) {
            System.out.println(e.getKey() + "  (" + e.getValue().size() + " methods)" + (System.getenv("METHODS") != null ? " " + e.getValue() : ""));
        }
        System.out.println("files: " + methodsByFile.size());
        System.out.println("not counted (test classes): " + notProduct);
    }

    /** The product source file that declares {@code type}, relative to the repository; null if none. */
    private static String sourceFile(Path repo, ReferenceType type) throws IOException {
        String name = type.name();
        int lambda = name.indexOf("$$Lambda");
        String host = lambda < 0 ? name : name.substring(0, lambda);
        String source;
        try {
            source = lambda < 0 ? type.sourceName() : outerClass(host) + ".java";
        } catch (AbsentInformationException e) {
            source = outerClass(host) + ".java";
        }
        String relative = host.substring(0, host.lastIndexOf('.')).replace('.', '/') + "/" + source;
        try (var modules = Files.list(repo)) {
            for (Path module : (Iterable<Path>) modules::iterator) {
                Path candidate = module.resolve("src/main/java").resolve(relative);
                if (Files.isRegularFile(candidate)) {
                    return repo.relativize(candidate).toString();
                }
            }
        }
        return null;
    }

    private static String outerClass(String name) {
        return name.substring(name.lastIndexOf('.') + 1).replaceAll("\\$.*", "");
    }

    private static void drain(InputStream in) {
        Thread t = new Thread(() -> {
            try {
                in.transferTo(System.err);
            } catch (IOException ignored) {
                // the target ended
            }
        });
        t.setDaemon(true);
        t.start();
    }
}
