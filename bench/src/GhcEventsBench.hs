{-# LANGUAGE BangPatterns #-}
{-
ghc-events-bench: the ghc-events library (0.17.0.3, Debian's
libghc-ghc-events-dev) doing what evtool's benchmarked commands do, so that
bench/run.sh can time the two side by side on the same file. bench/run.sh
builds it into a temporary folder with the installed GHC; it is never
committed as a binary.

  ghc-events-bench read FILE           decode every event; print how many
  ghc-events-bench show FILE           what `ghc-events show FILE` prints
                                       (ppEventLog, put with putStrLn)
  ghc-events-bench merge OUT A B       mergeEventLogs A B, written to OUT
                                       (what `ghc-events merge` does)

Exit status: 0 ok, 1 a file could not be read, 64 usage error.
-}
module Main (main) where

import Data.List (foldl')
import GHC.RTS.Events
import GHC.RTS.Events.Merge (mergeEventLogs)
import System.Environment
import System.Exit
import System.IO

load :: FilePath -> IO EventLog
load path = do
  r <- readEventLogFromFile path
  case r of
    Left err -> do
      hPutStrLn stderr ("ghc-events-bench: " ++ path ++ ": " ++ err)
      exitWith (ExitFailure 1)
    Right lg -> return lg

-- Every event forced (its time and its spec to weak head normal form).
count :: EventLog -> Int
count (EventLog _ (Data evs)) = foldl' step 0 evs
  where
    step !n e = evTime e `seq` evSpec e `seq` n + 1

main :: IO ()
main = do
  args <- getArgs
  case args of
    ["read", path] -> load path >>= print . count
    ["show", path] -> load path >>= putStrLn . ppEventLog
    ["merge", out, a, b] -> do
      la <- load a
      lb <- load b
      writeEventLogToFile out (mergeEventLogs la lb)
    _ -> do
      hPutStrLn stderr "usage: ghc-events-bench read FILE | show FILE | merge OUT A B"
      exitWith (ExitFailure 64)
