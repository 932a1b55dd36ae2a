# SPDX-License-Identifier: MIT
# What tests/fuzz/run and tests/fuzz/minimize share: how a case's ending is classified,
# the signature a finding is known by, and running one case in a scratch folder.
package FuzzLib;
use strict;
use warnings;
use File::Path qw(make_path remove_tree);
use POSIX qw(:sys_wait_h);
use Time::HiRes qw(time sleep);

# Seconds a case has to end after the watchdog's SIGINT (exit with LeakSanitizer's scan
# included, on a loaded machine) before it is killed and counted as a hang.
our $GRACE = 10;

# "ID <tabs> Perl regex" lines of tests/fuzz/known, matched against signatures.
sub load_known {
    my ($file) = @_;
    my @known;
    open my $k, '<', $file or return ();
    while (<$k>) {
        next if /^\s*(#|$)/;
        chomp;
        my ($id, $re) = split /\t+/, $_, 2;
        push @known, [$id, qr/$re/] if defined $re;
    }
    return @known;
}

sub known_id {
    my ($known, $sig) = @_;
    for my $k (@$known) { return $k->[0] if $sig =~ $k->[1] }
    return '-';
}

# Up to four function names of the stack that follows `from` in a sanitizer report,
# leaving out the allocator's frames.
sub frames_after {
    my ($text, $from) = @_;
    my @names;
    my $pos = index($text, $from);
    return () if $pos < 0;
    for my $line (split /\n/, substr($text, $pos)) {
        last if @names && $line !~ /^\s+#\d+ /;
        my $fn;
        if ($line =~ /^\s+#\d+ 0x[0-9a-f]+ in (\S+)/) { $fn = $1 }
        elsif ($line =~ /^\s+#\d+ 0x[0-9a-f]+\s+\(([^)+]*)/) { ($fn = $1) =~ s{.*/}{} } # a library without symbols
        else { next }
        next if $fn =~ /^(__interceptor_|__asan|__lsan|__ubsan|malloc$|calloc$|realloc$|free$)/;
        next if $fn =~ /^mech_(malloc|calloc|realloc|free)$/;
        push @names, $fn;
        last if @names == 4;
    }
    return @names;
}

# One line that names a finding: the sanitizer's error and the top of its stack, the
# oracle's message, or the first line of the error.
sub signature {
    my ($kind, $stderr) = @_;
    if ($stderr =~ /ERROR: AddressSanitizer: ([\w-]+)/) {
        my $what = $1;
        my $sig = "asan $what: " . join(" < ", frames_after($stderr, "ERROR: AddressSanitizer"));
        my @freed = frames_after($stderr, "freed by thread");
        $sig .= " (freed by " . join(" < ", @freed[0 .. ($#freed < 2 ? $#freed : 2)]) . ")" if @freed;
        return $sig;
    }
    if ($stderr =~ /^(\S+:\d+:\d+): runtime error: ([^\n]*)/m) {
        my ($where, $what) = ($1, $2);
        $where =~ s{.*/}{};
        $what =~ s/0x[0-9a-f]+/ADDR/g;
        return "ubsan $where: $what";
    }
    if ($stderr =~ /ERROR: LeakSanitizer/) {
        return "leak: " . join(" < ", frames_after($stderr, "Direct leak"));
    }
    if ($stderr =~ /(fuzz oracle: [^\n]*)/) {
        my $m = $1;
        $m =~ s/\S+\.lua:\d+: //g; # where in the case it fired does not matter
        return "oracle: $m";
    }
    my @lines = grep { /\S/ && !/^\s/ && !/^fuzz-(case-done|step)/ && !/^stack traceback/ } split /\n/, $stderr;
    my $first = $lines[0] // '';
    $first =~ s/\S+\.lua:\d+: //g;
    return "$kind: $first";
}

# Temporary files of run:csv (path.tmp<pid>), fig:save and run:mat (path.XXXXXX) left in dir.
sub leftovers {
    my ($dir) = @_;
    opendir my $d, $dir or return ();
    my @left = grep { /\.tmp\d+$/ || /\.(png|svg|pdf|csv|mat)\.[A-Za-z0-9]{6}$/ } readdir $d;
    closedir $d;
    return sort @left;
}

# How a case ended: (kind, how, signature), kind undef when all went well; "slow" for a
# case that the watchdog's SIGINT stopped cleanly.  $int: SIGINT was sent; $kill: SIGKILL.
sub classify {
    my ($status, $stderr, $int, $kill, $dir, $budget) = @_;
    my $sig = $status & 127;
    my $code = $status >> 8;
    my ($kind, $how);
    if ($int && $sig == 2 && $stderr =~ /^fuzz-case-done/m) {
        # the case had ended when the watchdog's SIGINT came (it was slow to its last step,
        # or the stack was taken while it finished): outside a running chunk, SIGINT ends
        # the program as it does any other
        return ("slow", "ended as the watchdog's SIGINT came", "slow");
    }
    if ($kill) {
        ($kind, $how) = ("hang", sprintf("did not end %g s after the watchdog's SIGINT (sent at %g s): killed", $GRACE, $budget));
    } elsif ($sig) {
        my %names = (2 => "SIGINT", 4 => "SIGILL", 6 => "SIGABRT", 7 => "SIGBUS", 8 => "SIGFPE",
                     9 => "SIGKILL", 11 => "SIGSEGV", 13 => "SIGPIPE", 15 => "SIGTERM");
        ($kind, $how) = ("signal", "killed by " . ($names{$sig} // "signal $sig")
                         . ($int ? " (after the watchdog's SIGINT)" : ""));
    } elsif ($stderr =~ /ERROR: (AddressSanitizer|LeakSanitizer)|runtime error:/) {
        ($kind, $how) = ("sanitizer", "exit status $code with a sanitizer report");
    } elsif ($int && ($code == 3 || ($code == 1 && $stderr =~ /^(\S*: ?)?interrupted$/m))) {
        # the case stopped (between two steps, the error escapes to the main chunk)
        return ("slow", "stopped by the watchdog's SIGINT", "slow");
    } elsif ($code != 0) {
        ($kind, $how) = ("exit", "exit status $code" . ($int ? " after the watchdog's SIGINT" : ""));
    } elsif ($stderr !~ /^fuzz-case-done/m) {
        ($kind, $how) = ("exit", "exit status 0 before the end of the case");
    } elsif (my @left = leftovers($dir)) {
        return ("tempfile", "left temporary files: @left", "tempfile: " . join(" ", map { s/\d+$|\.\w{6}$//r } @left));
    }
    return () unless $kind;
    my $signature = $kind eq 'signal' ? "signal: $how" : signature($kind, $stderr);
    $signature = "hang: " . join(" < ", gdb_frames("$dir/stack-after-sigint")) if $kind eq 'hang';
    return ($kind, $how, $signature);
}

# The step a case was at when it ended (its stderr's last "fuzz-step N"), and its line.
sub last_step {
    my ($file, $stderr) = @_;
    my @n = $stderr =~ /^fuzz-step (\d+)$/mg;
    return '' unless @n;
    my $n = $n[-1];
    open my $f, '<', $file or return "step $n";
    my $k = 0;
    while (my $line = <$f>) {
        next unless $line =~ /^S\(function\(\)/;
        next unless ++$k == $n;
        chomp $line;
        $line = substr($line, 0, 300) . " ..." if length $line > 300;
        return "step $n, line $.: $line";
    }
    return "step $n";
}

# Up to four function names of a gdb backtrace (libc and libm frames left out).
sub gdb_frames {
    my ($file) = @_;
    my @names;
    open my $f, '<', $file or return ();
    while (<$f>) {
        next unless /^#\d+\s+(?:0x[0-9a-f]+ in )?([A-Za-z_]\w*) \(/;
        next if $1 =~ /^__/;
        push @names, $1;
        last if @names == 4;
    }
    return @names;
}

# The C stack of a running case (gdb, when installed), for hangs and slow cases.
sub stack_of {
    my ($pid, $file) = @_;
    return unless -x "/usr/bin/gdb";
    system("timeout 30 /usr/bin/gdb -p $pid -batch -ex 'bt 40' >'$file' 2>&1 </dev/null");
}

# Runs one case to its end in an empty folder `dir` (made afresh), with the watchdog;
# returns (kind, how, signature, stderr).
sub run_one {
    my ($mechlua, $file, $dir, $budget) = @_;
    remove_tree($dir);
    make_path($dir);
    my $pid = fork() // die "fork: $!\n";
    if ($pid == 0) {
        chdir $dir or die "chdir $dir: $!\n";
        open STDIN, '<', '/dev/null';
        open STDOUT, '>', 'stdout' or die;
        open STDERR, '>', 'stderr' or die;
        setpgrp(0, 0);
        exec $mechlua, $file or exit 127;
    }
    my ($start, $int, $kill) = (time, 0, 0);
    while (waitpid($pid, WNOHANG) == 0) {
        my $now = time;
        if (!$int && $now - $start > $budget) {
            stack_of($pid, "$dir/stack");
            if (open my $w, '>', "$dir/WATCHDOG") { close $w }
            kill 'INT', $pid;
            $int = $now;
        } elsif ($int && !$kill && $now - $int > $GRACE) {
            stack_of($pid, "$dir/stack-after-sigint");
            kill 'KILL', -$pid;
            kill 'KILL', $pid;
            $kill = 1;
        }
        sleep 0.01;
    }
    my $status = $?;
    my $stderr = '';
    if (open my $e, '<', "$dir/stderr") { local $/; $stderr = <$e> // '' }
    my ($kind, $how, $sig) = classify($status, $stderr, $int, $kill, $dir, $budget);
    return ($kind, $how, $sig, $stderr);
}

1;
