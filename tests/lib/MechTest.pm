# SPDX-License-Identifier: MIT
# Helpers for the Perl tests that drive the mechlua program from outside.
package MechTest;
use strict;
use warnings;
use Exporter 'import';
use File::Temp qw(tempdir);
use POSIX ();
use Test::More ();
use Time::HiRes qw(sleep time);

our @EXPORT = qw(mechlua_path source_dir build_dir run_mechlua slurp spew scratch_dir
  project_version check_figures read_csv mpirun_path run_mpirun);

sub mechlua_path { $ENV{MECHLUA} or die "MECHLUA is not set: run the tests with tests/run\n" }
sub source_dir   { $ENV{MECHLUA_SOURCE} or die "MECHLUA_SOURCE is not set\n" }
sub build_dir    { $ENV{MECHLUA_BUILD} or die "MECHLUA_BUILD is not set\n" }

sub scratch_dir { tempdir('mechlua-test-XXXXXX', TMPDIR => 1, CLEANUP => 1) }

sub slurp {
    my ($path) = @_;
    open my $fh, '<:raw', $path or return undef;
    local $/;
    my $s = <$fh>;
    return defined $s ? $s : '';
}

sub spew {
    my ($path, $text) = @_;
    open my $fh, '>:raw', $path or die "cannot write $path: $!\n";
    print {$fh} $text;
    close $fh or die "cannot write $path: $!\n";
}

# The version in the project() line of CMakeLists.txt: what the program must report.
sub project_version {
    my $cm = slurp(source_dir() . '/CMakeLists.txt');
    $cm =~ /project\(mechlua\s+VERSION\s+([0-9.]+)/ or die "no version in CMakeLists.txt\n";
    return $1;
}

# run_mechlua(args => [...], stdin => 'text', env => {K => V}, cwd => dir,
#             signal_after => seconds (sends SIGINT), timeout => seconds)
# Returns { status, signal, out, err, timed_out }.
sub run_mechlua {
    my (%o) = @_;
    my $dir = scratch_dir();
    spew("$dir/stdin", defined $o{stdin} ? $o{stdin} : '');
    my @cmd = ($o{program} || mechlua_path(), @{ $o{args} || [] });
    my $pid = fork;
    die "fork: $!\n" unless defined $pid;
    if ($pid == 0) {
        open STDIN,  '<', "$dir/stdin"  or POSIX::_exit(126);
        open STDOUT, '>', "$dir/stdout" or POSIX::_exit(126);
        open STDERR, '>', "$dir/stderr" or POSIX::_exit(126);
        chdir $o{cwd} or POSIX::_exit(126) if $o{cwd};
        while (my ($k, $v) = each %{ $o{env} || {} }) {
            if (defined $v) { $ENV{$k} = $v } else { delete $ENV{$k} }
        }
        { no warnings 'exec'; exec { $cmd[0] } @cmd; }
        POSIX::_exit(127);
    }
    my $timeout = $o{timeout} || 60;
    my $start = time;
    my $sent = 0;
    my $timed_out = 0;
    while (1) {
        my $r = waitpid($pid, POSIX::WNOHANG());
        last if $r == $pid;
        my $elapsed = time - $start;
        if ($o{signal_after} && !$sent && $elapsed >= $o{signal_after}) {
            kill 'INT', $pid;
            $sent = 1;
        }
        if ($elapsed > $timeout) {
            kill 'KILL', $pid;
            waitpid($pid, 0);
            $timed_out = 1;
            last;
        }
        sleep 0.02;
    }
    my $st = $?;
    return {
        status    => $st >> 8,
        signal    => $st & 127,
        out       => slurp("$dir/stdout"),
        err       => slurp("$dir/stderr"),
        timed_out => $timed_out,
    };
}

# The figures a script says it wrote on its "  figures: a, b, ..." line: each PNG has the
# PNG signature and a print resolution (width and height are the first two words of IHDR,
# big-endian), each PDF is whole (from %PDF- to %%EOF).
sub check_figures {
    my ($out, $count, $what) = @_;
    my ($list) = $out =~ /^  figures: (.*)$/m;
    my @figs = split /, /, $list // '';
    Test::More::is(scalar @figs, $count, "$what says where its $count figures went");
    for my $f (@figs) {
        my $data = slurp($f) // '';
        if ($f =~ /\.png$/) {
            Test::More::ok($data =~ /\A\x89PNG\r\n\x1a\n/, "$f is a PNG");
            my ($w, $h) = unpack('NN', substr($data, 16, 8));
            Test::More::cmp_ok($w * $h, '>', 500_000, "$f has a print resolution ($w x $h)");
        } else {
            Test::More::ok($data =~ /\A%PDF-/ && $data =~ /%%EOF\s*\z/, "$f is a whole PDF");
        }
    }
}

# The columns of a CSV file written by run:csv: { header => the '#' lines, names => [...],
# col => { name => [values] }, rows => count }, names without their units.
sub read_csv {
    my ($path) = @_;
    my $text = slurp($path) // '';
    my @lines = split /\n/, $text;
    my ($names) = grep { /^t \[s\]/ } @lines;
    my @names = map { (split / \[/)[0] } split /,/, $names // '';
    my %col = map { $_ => [] } @names;
    for my $line (grep { /^[0-9-]/ } @lines) {
        my @v = split /,/, $line;
        push @{ $col{ $names[$_] } }, $v[$_] for 0 .. $#names;
    }
    return { header => $text =~ s/^[^#].*\z//msr, names => \@names, col => \%col,
        rows => scalar @{ $col{t} // [] } };
}

# Open MPI's mpirun (Debian's openmpi-bin), or undef when it is not installed.
sub mpirun_path {
    for my $dir (split /:/, $ENV{PATH} // '') {
        return "$dir/mpirun" if length $dir && -x "$dir/mpirun";
    }
    return undef;
}

# run_mpirun(n => K, args => [...], env => {...}, program => ..., timeout => ...): runs
# `mpirun -n K --oversubscribe mechlua args...` as run_mechlua runs the program, and returns
# what it returns (the output of every rank, mixed).  --oversubscribe: more ranks than
# cores (-n 3 on a machine with 2).  CI runs the tests as root, which mpirun refuses unless
# OMPI_ALLOW_RUN_AS_ROOT and OMPI_ALLOW_RUN_AS_ROOT_CONFIRM are set (harmless otherwise).
# In the sanitizer build the ranks run without the leak checker (ASan and UBSan stay on):
# MPI_Finalize unloads Open MPI's plugins and libpmix, and the memory they keep is then
# reported with allocation stacks that name no library, which no suppression can match.
sub run_mpirun {
    my (%o) = @_;
    my $mpirun = mpirun_path() or die "mpirun is not installed\n";
    my @args = ('-n', delete $o{n} // 2, '--oversubscribe', delete $o{program} // mechlua_path(),
        @{ delete $o{args} // [] });
    my $asan = join ':', grep { length } $ENV{ASAN_OPTIONS} // '', 'detect_leaks=0';
    my %env = (OMPI_ALLOW_RUN_AS_ROOT => 1, OMPI_ALLOW_RUN_AS_ROOT_CONFIRM => 1,
        ASAN_OPTIONS => $asan, %{ delete $o{env} // {} });
    return run_mechlua(%o, program => $mpirun, args => \@args, env => \%env);
}

1;
