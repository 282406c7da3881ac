package org.reconmuc.spec;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.net.URL;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/** Reads the specification's classpath resources (UTF-8 text) and their index files. */
final class Resources {
    static final String ROOT = "reconmuc/";

    private Resources() {
    }

    static URL url(String path) {
        URL url = Resources.class.getClassLoader().getResource(ROOT + path);
        if (url == null) {
            throw new IllegalArgumentException("No resource " + ROOT + path + " on the classpath");
        }
        return url;
    }

    static String text(String path) {
        try (InputStream in = url(path).openStream()) {
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException("Cannot read " + ROOT + path, e);
        }
    }

    /**
     * The file names listed in {@code dir/index.txt}: one per line, blank lines and lines starting
     * with '#' ignored, in the order of the file.
     */
    static List<String> index(String dir) {
        List<String> names = new ArrayList<>();
        try (BufferedReader r = new BufferedReader(new InputStreamReader(url(dir + "/index.txt").openStream(),
                StandardCharsets.UTF_8))) {
            for (String line; (line = r.readLine()) != null; ) {
                String name = line.strip();
                if (!name.isEmpty() && !name.startsWith("#")) {
                    names.add(name);
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException("Cannot read " + ROOT + dir + "/index.txt", e);
        }
        return Collections.unmodifiableList(names);
    }

    /** Names without the ".xml" extension, in index order. */
    static List<String> xmlNames(String dir) {
        List<String> names = new ArrayList<>();
        for (String file : index(dir)) {
            if (!file.endsWith(".xml")) {
                throw new IllegalStateException(ROOT + dir + "/index.txt lists a file that is not .xml: " + file);
            }
            names.add(file.substring(0, file.length() - ".xml".length()));
        }
        return Collections.unmodifiableList(names);
    }

    /** The text of {@code dir/name.xml}; {@code name} may carry the extension or not. */
    static String xml(String dir, String name) {
        String base = name.endsWith(".xml") ? name.substring(0, name.length() - 4) : name;
        if (base.isEmpty() || base.contains("/") || base.contains("\\") || base.startsWith(".")) {
            throw new IllegalArgumentException("Not a " + dir + " name: " + name);
        }
        if (!xmlNames(dir).contains(base)) {
            throw new IllegalArgumentException("No " + dir + " named '" + base + "' in " + ROOT + dir + "/index.txt");
        }
        return text(dir + "/" + base + ".xml");
    }
}
