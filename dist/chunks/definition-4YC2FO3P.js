import { createRequire as __sauceCreateRequire } from 'node:module';
const require = __sauceCreateRequire(import.meta.url);
import{a,b}from"./chunk-WB3SFB7U.js";import"./chunk-K3D5RFA3.js";import"./chunk-2S4FNIAK.js";import"./chunk-K5ZU5YPL.js";import"./chunk-WUERNB52.js";import"./chunk-IRX2MB2K.js";import"./chunk-KRX62K5C.js";import"./chunk-N7B7JHUD.js";import"./chunk-FC5NRJ7C.js";import"./chunk-7DOOPZ4R.js";import"./chunk-QQMVQEPJ.js";import"./chunk-XBPPTJU7.js";export{b as action,a as post};
