-- sparks.hs: parallel Fibonacci with par/pseq (from GHC.Conc, so the
-- parallel package is not needed). Below the cutoff it runs sequentially,
-- so only a few hundred sparks are created.
import GHC.Conc (par, pseq)

pfib :: Int -> Int -> Integer
pfib cutoff n
  | n < 2 = fromIntegral n
  | n < cutoff = sfib n
  | otherwise = a `par` (b `pseq` (a + b))
  where
    a = pfib cutoff (n - 1)
    b = pfib cutoff (n - 2)

sfib :: Int -> Integer
sfib n = if n < 2 then fromIntegral n else sfib (n - 1) + sfib (n - 2)

main :: IO ()
main = do
  let rs = [pfib 14 n | n <- [22, 23, 24]]
  mapM_ (\r -> r `seq` return ()) rs
  putStrLn ("sparks: " ++ show rs)
