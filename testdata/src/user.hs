{-# LANGUAGE ScopedTypeVariables #-}
-- user.hs: user messages (traceEventIO, event 19) and markers
-- (traceMarkerIO, event 58), including non-ASCII text, which GHC encodes
-- as UTF-8.
import Control.Monad
import Debug.Trace (traceEventIO, traceMarkerIO)

main :: IO ()
main = do
  traceMarkerIO "begin"
  traceEventIO "hello from user.hs"
  traceEventIO "non-ASCII: caf\233 na\239ve \252ber \955x.x \26085\26412\35486 \128640"
  traceMarkerIO "marker \945\946\947"
  forM_ [1 .. 20 :: Int] $ \i -> do
    let s = sum [1 .. i * 1000]
    s `seq` traceEventIO ("step " ++ show i ++ " sum=" ++ show s)
    when (i `mod` 5 == 0) $ traceMarkerIO ("checkpoint " ++ show i)
  traceEventIO ""
  traceEventIO "tab\there, quote \" and backslash \\"
  traceMarkerIO "end \8364"
  putStrLn "user: done"
